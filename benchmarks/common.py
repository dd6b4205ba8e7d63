"""Shared pieces of the asv suites: sizes, skips, cached deterministic data, timing helpers.

* Sizes go through :func:`size`, so that ``TINY`` (set by the test suite, or
  ``LSSVM_BENCH_TINY=1``) shrinks every benchmark to a smoke test: a broken
  benchmark then fails pytest instead of a later ``asv run``.
* A component the installed version lacks (a solver not registered yet, a
  module not written yet) raises :class:`Missing` from ``setup``: asv skips
  the combination (it is a ``NotImplementedError``), and the suites still
  import against any version of the package.
* Data getters are ``lru_cache``-d and seeded: asv re-runs ``setup`` before
  every sample, and every process builds the same data.
* Accuracy ``track_`` values are rounded (digits to 0.1, log10 values to
  0.1, ratios to 2 significant digits): asv flags any change over 10 % of a
  raw tracked value, and the last bits of a digit count are noise.
"""
from __future__ import annotations

import importlib
import math
import os
import time
from functools import lru_cache

import numpy as np

try:  # imported here so that asv's forkserver preimports it: forked benchmark processes start warm
    import lssvm_analysis as la
except ImportError:  # pragma: no cover - asv discovery must survive a broken install
    la = None
for _name in ("lssvm_analysis.analysis.crossover", "lssvm_analysis.papers.abe.crossover_timing",
              "lssvm_analysis.analysis.reference", "lssvm_analysis.datasets"):
    try:
        importlib.import_module(_name)
    except Exception:  # noqa: BLE001 - missing or mid-edit: optional_module reports it in setup
        pass

__all__ = ["la", "TINY", "OneShot", "Missing", "size", "optional_module", "solver_names", "require_solver",
           "regression_data", "classification_data", "spd_matrix", "conditioned_system",
           "logspaced_spd", "kkt_system",
           "solver_problem", "crossover_problem", "paper_solvers", "variant_values", "hardware_precisions", "native_precisions", "require_precision", "interleaved_min", "round_sig", "round_to",
           "blas_threads", "limit_blas_threads"]

#: Smoke-test mode: every size n becomes ``max(TINY_MIN, n // TINY_DIVISOR)`` (at most n).
TINY = os.environ.get("LSSVM_BENCH_TINY", "0") not in ("", "0")
TINY_DIVISOR = 50
TINY_MIN = 40


class OneShot:
    """asv sampling of benchmarks whose single call takes ~0.1 s to seconds.

    One round, one call per sample, no warm-up; each suite sets its own
    ``timeout`` and ``repeat``.
    """

    rounds = 1
    number = 1
    warmup_time = 0


class Missing(NotImplementedError):
    """A component this version of lssvm_analysis does not have (asv skips the benchmark)."""


def size(n: int) -> int:
    """The problem size to use for a nominal size n (n itself unless ``TINY``)."""
    if not TINY:
        return int(n)
    return int(min(n, max(TINY_MIN, n // TINY_DIVISOR)))


def optional_module(name: str):
    """Import ``name`` or raise :class:`Missing` (suites import on any version)."""
    try:
        return importlib.import_module(name)
    except ImportError as err:
        raise Missing(f"{name} is not available in this version: {err}") from None


def solver_names() -> list:
    """Names in the solver registry at import time ('(none)' if empty, so params stay valid)."""
    try:
        names = list(la.solvers())
    except Exception:  # noqa: BLE001 - an old or broken version must not break discovery
        names = []
    return names or ["(none)"]


def paper_solvers(paper: str) -> list:
    """The registered solvers of one seed paper ('(none)' if none, so params stay valid)."""
    try:
        names = list(la.solvers(paper=paper))
    except Exception:  # noqa: BLE001 - an old or broken version must not break discovery
        names = []
    return names or ["(none)"]


def _native() -> list:
    """The registry's precisions with a native NumPy dtype (not mp); [] when it cannot be read."""
    try:
        return list(la.precisions(native=True))
    except TypeError:  # a version without the keyword: the floating dtypes of its registry
        pass
    except Exception:  # noqa: BLE001 - an old or broken version must not break discovery
        return []
    try:
        return [n for n in la.precisions() if la.get_precision(n).dtype.kind == "f"]
    except Exception:  # noqa: BLE001
        return []


def hardware_precisions() -> list:
    """The registry's LAPACK-backed precisions (float32, float64): the ones worth timing.

    On a version whose registry has no ``hardware`` flag: the native IEEE
    single and double formats (itemsize <= 8) of its registry.
    """
    try:
        return list(la.precisions(hardware=True))
    except Exception:  # noqa: BLE001 - an old version without the keyword
        return [n for n in _native() if la.get_precision(n).dtype.itemsize <= 8] or ["(none)"]


def native_precisions() -> list:
    """The registry's precisions with a native NumPy dtype (float32, float64, longdouble): not mp."""
    return _native() or ["(none)"]


def require_precision(info, precision: str) -> None:
    """:class:`Missing` when the solver does not run in ``precision`` (e.g. LIBSVM outside float64)."""
    supported = getattr(info, "supported_precisions", None)
    if supported is not None and precision not in supported():
        raise Missing(f"solver {info.name!r} does not run in {precision}")


def variant_values(solver: str, option: str, *, literal: bool | None = None) -> list:
    """The registered values of ``solver``'s variant keyword ``option``, default first (only the
    paper's literal ones with ``literal=True``); ``["(none)"]`` where this version has none."""
    try:
        vs = la.get_solver(solver).variant_options().get(option, ())
        names = [v.value for v in vs if literal is None or v.literal == literal]
    except Exception:  # noqa: BLE001 - an old or broken version must not break discovery
        names = []
    return names or ["(none)"]


def require_solver(name: str):
    """The registry entry of ``name`` or :class:`Missing`."""
    if la is None:
        raise Missing("lssvm_analysis cannot be imported")
    if name not in la.solvers():
        raise Missing(f"solver {name!r} is not registered in this version")
    return la.get_solver(name)


# --------------------------------------------------------------------------- #
# data (cached, deterministic)
# --------------------------------------------------------------------------- #
@lru_cache(maxsize=None)
def regression_data(M: int, *, d: int = 4, seed: int = 0):
    """Noisy sinc of ||x|| on [-3, 3]^d: (X, y) float64, read-only."""
    rng = np.random.default_rng([seed, M, d])
    X = rng.uniform(-3, 3, size=(M, d))
    y = np.sinc(np.linalg.norm(X, axis=1) / np.pi) + 0.1 * rng.standard_normal(M)
    return _frozen(X), _frozen(y)


@lru_cache(maxsize=None)
def classification_data(M: int, *, d: int = 4, seed: int = 0):
    """Two Gaussian clouds at +-1 (unit variance) with labels -1/+1, both present."""
    rng = np.random.default_rng([seed, M, d, 1])
    y = np.where(np.arange(M) % 2 == 0, 1.0, -1.0)
    X = y[:, None] + rng.standard_normal((M, d))
    return _frozen(X), _frozen(y)


@lru_cache(maxsize=None)
def spd_matrix(n: int, *, seed: int = 0):
    """RBF kernel matrix of n points in [0, 1]^5 (sigma2 = 0.5) plus 1e-2 I: SPD, float64."""
    X = np.random.default_rng([seed, n]).uniform(size=(n, 5))
    A = la.rbf_kernel(X, sigma2=0.5) + 1e-2 * np.eye(n)
    return _frozen(A)


@lru_cache(maxsize=None)
def conditioned_system(M: int, cond: float, *, seed: int = 0):
    """RBF + I/C with C chosen so that cond_2(A) = cond; returns (A, b, log10 cond_2(A)).

    With the eigenvalues l_min, l_max of the kernel matrix K, cond(K + dI) =
    (l_max + d) / (l_min + d) = cond gives d = (l_max - cond l_min) / (cond - 1).
    The condition number actually reached is measured (float64 eigvalsh of
    the formed A) and returned.
    """
    rng = np.random.default_rng([seed, M, 2])
    X = rng.uniform(size=(M, 3))
    K = la.rbf_kernel(X, sigma2=0.5)
    lam = np.linalg.eigvalsh(K)
    d = (lam[-1] - cond * max(lam[0], 0.0)) / (cond - 1)
    A = K + d * np.eye(M)
    ev = np.linalg.eigvalsh(A)
    return _frozen(A), _frozen(rng.standard_normal(M)), float(np.log10(ev[-1] / ev[0]))


@lru_cache(maxsize=None)
def logspaced_spd(M: int, cond: float, *, seed: int = 0):
    """Q diag(logspace(0, -log10 cond, M)) Q^T in float64 (Q: QR of a Gaussian matrix), b Gaussian.

    The SPD test matrix of issue 13.  Returns (A, b, log10 cond_2(A)), the
    condition number measured as in :func:`conditioned_system` (float64
    eigenvalues of the formed A: below ~1e15 that is cond; near 1/u the
    rounding of the formed A moves its smallest eigenvalues by ~u).
    """
    rng = np.random.default_rng([seed, M, 3])
    Q, _ = np.linalg.qr(rng.standard_normal((M, M)))
    A = (Q * np.logspace(0, -np.log10(cond), M)) @ Q.T
    A = (A + A.T) / 2
    ev = np.abs(np.linalg.eigvalsh(A))
    return _frozen(A), _frozen(rng.standard_normal(M)), float(np.log10(ev.max() / ev.min()))


@lru_cache(maxsize=None)
def kkt_system(M: int, cond: float, *, seed: int = 0):
    """The LS-SVM KKT system [[0, 1^T], [1, H]] [b; alpha] = [0; y] with H of :func:`conditioned_system`.

    Returns (A, rhs, log10 cond_2(A)) (max |lambda| / min |lambda|, float64
    eigenvalues; A is symmetric indefinite, so reference_solve factors it by LU).
    """
    H, y, _ = conditioned_system(M, cond, seed=seed)
    kkt = optional_module("lssvm_analysis.solvers.kkt")
    A, rhs = kkt.bordered_matrix(np.array(H), np.ones(M), np.array(y), "float64")
    ev = np.abs(np.linalg.eigvalsh(A))
    return _frozen(A), _frozen(rhs), float(np.log10(ev.max() / ev.min()))


@lru_cache(maxsize=None)
def _solver_problem(name: str, M: int, C: float, sigma2: float):
    """(X, y, kwargs) of one fit of solver ``name`` on M points; see :func:`solver_problem`."""
    info = require_solver(name)
    task = info.tasks[0]
    make = regression_data if task == "regression" else classification_data
    X, y = make(M)
    kw = {k: v for k, v in (("C", C), ("sigma2", sigma2)) if info.accepts(k)}
    if info.takes_task:
        kw["task"] = task
    if info.example is not None:  # what the solver needs besides (e.g. pruning's validation set)
        kw.update(info.example(X, y, task, np.random.default_rng([M, 3])))
    if info.accepts("estimate_kappa"):  # lssvm-cg: an O(M^3) eigenvalue computation is not CG's cost
        kw["estimate_kappa"] = False
    return X, y, kw


def solver_problem(name: str, M: int, *, C: float = 10.0, sigma2: float = 2.0):
    """Data and hyper-parameters a registered solver is benchmarked with.

    Regression data (noisy sinc) for solvers that do regression, otherwise
    two Gaussian classes; ``C``, ``sigma2`` and ``task`` where the registry
    says the solver takes them, the keywords of its registered example
    (pruning's validation set, Abe's eta = 0.05) and ``estimate_kappa=False``
    (lssvm-cg: timing CG, not an eigensolver); every other option stays at
    the solver's default.
    """
    X, y, kw = _solver_problem(name, int(M), float(C), float(sigma2))
    return X, y, dict(kw)


@lru_cache(maxsize=None)
def crossover_problem(M: int):
    """(X, y) of the crossover study (:func:`lssvm_analysis.datasets.crossover_data`)."""
    data = optional_module("lssvm_analysis.datasets.crossover")
    X, y = data.crossover_data(M)
    return _frozen(X), _frozen(y)


def _frozen(a):
    a = np.asarray(a)
    a.flags.writeable = False  # a benchmark that writes into shared data fails loudly
    return a


# --------------------------------------------------------------------------- #
# timing and rounding
# --------------------------------------------------------------------------- #
def interleaved_min(funcs, repeats: int) -> list:
    """Minimum wall time of each function over ``repeats`` interleaved rounds.

    The order alternates between rounds (f0 f1 ... / ... f1 f0) so that a
    slow drift of a shared machine hits every function alike; the minimum is
    the least noisy estimate of the cost.
    """
    best = [math.inf] * len(funcs)
    order = list(range(len(funcs)))
    for r in range(repeats):
        for i in (order if r % 2 == 0 else order[::-1]):
            t0 = time.perf_counter()
            funcs[i]()
            best[i] = min(best[i], time.perf_counter() - t0)
    return best


def round_sig(x: float, sig: int = 2) -> float:
    """x rounded to ``sig`` significant digits (NaN and inf pass through)."""
    x = float(x)
    if not math.isfinite(x) or x == 0:
        return x
    return round(x, sig - 1 - int(math.floor(math.log10(abs(x)))))


def round_to(x: float, step: float = 0.1) -> float:
    """x rounded to a multiple of ``step`` (NaN and inf pass through)."""
    x = float(x)
    return x if not math.isfinite(x) else round(round(x / step) * step, 10)


def blas_threads() -> int:
    """Largest thread count among the loaded BLAS/OpenMP pools (threadpoolctl), 0 if unknown."""
    try:
        from threadpoolctl import threadpool_info
    except ImportError:  # pragma: no cover - threadpoolctl comes with scikit-learn
        return 0
    return max((int(i.get("num_threads", 0)) for i in threadpool_info()), default=0)


def limit_blas_threads(n: int = 1) -> None:
    """Limit every loaded BLAS/OpenMP pool to n threads (for NumPy loaded before the env var)."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover
        return
    threadpool_limits(limits=n)


limit_blas_threads(1)
