"""The asv suites run, and the crossover model, measurement and asv reader are right.

* Every benchmark (class x ``time_`` / ``peakmem_`` / ``track_`` method, found
  by inspection as asv finds them) runs its ``setup_cache``, ``setup`` and one
  call for every parameter combination at a tiny size (``common.TINY``), so
  a broken benchmark fails here rather than in a later ``asv run``.
* :mod:`lssvm_analysis.analysis.crossover`: the flop model against its closed form,
  the crossover point, the eta search, the in-process measurement and the
  reader of asv result files.
"""
from __future__ import annotations

import importlib
import inspect
import itertools
import json
import math
import os
import pkgutil
import re
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # benchmarks/ is a top-level package next to lssvm_analysis/
    sys.path.insert(0, str(ROOT))

import benchmarks  # noqa: E402
from benchmarks import common  # noqa: E402
from conftest import HARDWARE

from lssvm_analysis import datasets  # noqa: E402
from lssvm_analysis.analysis import crossover as cx  # noqa: E402
from lssvm_analysis.datasets.crossover import DATA_FEATURES  # noqa: E402
from lssvm_analysis.experiments import asv_import  # noqa: E402
from lssvm_analysis.papers.abe import crossover_timing as timing  # noqa: E402
from lssvm_analysis import make_kernel, thresholded_cholesky  # noqa: E402

#: asv's benchmark name prefixes (asv_runner.benchmarks.*.name_regex).
BENCH_RE = re.compile(r"^(time|timeraw|peakmem|mem|track)_")


def _discover():
    """(module, class, method) of every benchmark, by inspection of benchmarks/ as asv does it."""
    found = []
    for info in pkgutil.iter_modules(benchmarks.__path__):
        mod = importlib.import_module(f"benchmarks.{info.name}")
        for cname, cls in vars(mod).items():
            if inspect.isclass(cls) and not cname.startswith("_") and cls.__module__ == mod.__name__:
                found += [(mod.__name__, cname, m) for m in sorted(dir(cls)) if BENCH_RE.match(m)]
    return found


BENCHMARKS = _discover()
_CACHES = {}


@pytest.fixture
def tiny(monkeypatch):
    monkeypatch.setattr(common, "TINY", True)


def _cache_of(cls):
    """The setup_cache value, computed once per function (asv's key: module and line)."""
    if not hasattr(cls, "setup_cache"):
        return None
    func = cls.setup_cache
    key = (func.__module__, func.__code__.co_firstlineno)
    if key not in _CACHES:
        _CACHES[key] = cls().setup_cache()
    return _CACHES[key]


def _combos(cls):
    params = getattr(cls, "params", [])
    if params and not isinstance(params[0], (list, tuple)):
        params = [params]
    return list(itertools.product(*params)) if params else [()]


def test_discovery_matches_asv():
    """The inspection above finds exactly the benchmarks asv's own discovery finds."""
    discovery = pytest.importorskip("asv_runner.discovery")
    names = {b.name for b in discovery.disc_benchmarks(str(ROOT / "benchmarks"))}
    ours = {f"{m.split('.', 1)[1]}.{c}.{f}" for m, c, f in BENCHMARKS}
    assert ours == names
    assert len(ours) >= 10


@pytest.mark.parametrize("module, cls_name, method", BENCHMARKS,
                         ids=[f"{m.split('.', 1)[1]}.{c}.{f}" for m, c, f in BENCHMARKS])
def test_benchmark_runs_tiny(module, cls_name, method, tiny):
    """setup + one call for every parameter combination at the tiny size; track_ values are numbers."""
    cls = getattr(importlib.import_module(module), cls_name)
    if method.startswith("track_"):
        unit = getattr(getattr(cls, method), "unit", None)
        assert isinstance(unit, str) and unit, f"{cls_name}.{method} has no unit"
    cache = _cache_of(cls)
    ran, skipped, missing = 0, 0, []
    for params in _combos(cls):
        obj = cls()
        args = ((cache,) if cache is not None else ()) + tuple(params)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # solvers warn by design (e.g. not converged)
            try:
                if hasattr(obj, "setup"):
                    obj.setup(*args)
            except common.Missing as err:
                missing.append(str(err))
                continue
            except NotImplementedError:
                skipped += 1  # an impossible or budget-skipped combination, as asv does
                continue
            value = getattr(obj, method)(*args)
            if hasattr(obj, "teardown"):
                obj.teardown(*args)
        ran += 1
        if method.startswith("track_"):
            assert isinstance(value, (int, float)) and not isinstance(value, bool), (params, value)
            assert math.isfinite(value), (params, value)
    if ran == 0 and missing:
        pytest.skip(f"component missing in this version: {missing[0]}")
    assert ran >= 1, f"every combination of {cls_name}.{method} was skipped ({skipped})"


def test_tiny_crossover_hits_target_ratios(tiny):
    """The eta table of the crossover suite gives N within max(1, 0.005 M) of ratio * M."""
    from benchmarks import bench_crossover as bc

    assert _cache_of(bc.ElsCrossover)  # a marker: the rows are built lazily per (M, precision)
    for M, precision in itertools.product(bc.M_VALUES + bc.LARGE_M_VALUES, bc.PRECISIONS):
        row = bc.eta_row(M, precision)
        m = common.size(M)
        for ratio, (eta, N) in row.items():
            assert abs(N - round(ratio * m)) <= max(1, int(0.005 * m)), (M, precision, ratio, N)


def test_asv_conf():
    """asv.conf.json: the settings the suites and the README rely on."""
    util = pytest.importorskip("asv.util")
    conf = util.load_json(str(ROOT / "asv.conf.json"), js_comments=True)
    assert conf["version"] == 1 and conf["project"] == "lssvm_analysis" and conf["repo"] == "."
    assert conf["benchmark_dir"] == "benchmarks" and conf["environment_type"] == "virtualenv"
    for key in ("results_dir", "html_dir", "env_dir"):
        assert conf[key].startswith(".asv/"), key
    assert "--no-deps" in conf["build_command"][0]
    assert conf["matrix"]["env_nobuild"]["OPENBLAS_NUM_THREADS"] == ["1"]


# --------------------------------------------------------------------------- #
# crossover.py: the flop model
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("n", [1, 7, 100, 2000])
def test_flop_model_cholesky_is_lapack_count(n):
    """Factorization flops are LAPACK's dpotrf count n^3/3 + n^2/2 + n/6 for the system order."""
    expect = n ** 3 / 3 + n ** 2 / 2 + n / 6
    assert cx.flop_model(n, n, "dual")["factorization"] == pytest.approx(expect, rel=1e-15)
    assert cx.flop_model(3 * n, n, "primal")["factorization"] == pytest.approx(expect, rel=1e-15)
    for form in cx.FORMS:
        f = cx.flop_model(3 * n, n, form)
        assert f["total"] == pytest.approx(f["formation"] + f["factorization"] + f["solve"], rel=1e-15)


@pytest.mark.parametrize("formation, lead", [("blas3", 1.0), ("as-described", 2.0)])
@pytest.mark.parametrize("r", [0.1, 0.37, 0.5, 1.0])
def test_flop_model_leading_terms(formation, lead, r):
    """dual/primal -> (r + 1/3) / (lead r^2 + r^3/3) for large M (Abe §2.4 counts).

    Lower-order terms: primal <= 5 M N + 3 N^2 + 4 N against lead M N^2 (relative
    <= 8 / N), dual M N + 4 M^2 + 2 M N + 5 M against M^2 N (<= 3 / M + 4 / N);
    the ratio's relative error is below their sum, < 10 / N for N <= M.
    """
    M = 1_000_000
    N = int(r * M)
    model = cx.crossover_ratio_model(M, [r], formation=formation)
    closed = (r + 1 / 3) / (lead * r ** 2 + r ** 3 / 3)
    assert model["dual_over_primal"].iloc[0] == pytest.approx(closed, rel=10 / N)


def test_blas3_model_primal_never_slower():
    """BLAS-3 formation: dual/primal > 1 for every N < M and 1 + O(1/M^2) at N = M (crossover N*/M = 1)."""
    M = 2000
    ratios = np.arange(1, M + 1) / M
    df = cx.crossover_ratio_model(M, ratios)
    assert (df["dual_over_primal"].iloc[:-1] > 1).all()
    # at N = M the totals differ by the 2M flops of the dual's extra O(M) vector work: 2M / (4/3 M^3)
    assert df["dual_over_primal"].iloc[-1] - 1 == pytest.approx(0, abs=2 / M ** 2)
    assert math.isnan(cx.crossover_point(df))


def test_as_described_model_crossover_is_root_of_leading_terms():
    """As-described: N*/M is the root in (0, 1) of r^3/3 + 2 r^2 - r - 1/3 (leading terms), to O(1/M)."""
    roots = np.roots([1 / 3, 2, -1, -1 / 3])
    r_star = float(next(z.real for z in roots if abs(z.imag) < 1e-12 and 0 < z.real < 1))
    M = 100_000
    df = cx.crossover_ratio_model(M, np.linspace(0.5, 0.8, 301), formation="as-described")
    # grid spacing 1e-3, interpolation error O(spacing^2); lower-order terms shift the root by O(10/N)
    assert cx.crossover_point(df) == pytest.approx(r_star, abs=1e-3)


def test_crossover_point_interpolates_log_ratio():
    """log ratio linear in N/M is recovered exactly; NaN if above 1 everywhere; first point if <= 1 there."""
    x = np.linspace(0.1, 1.0, 10)
    for x_star in (0.23, 0.5, 0.87):
        df = pd.DataFrame({"n_over_m": x[::-1], "dual_over_primal": np.exp(3.0 * (x_star - x[::-1]))})
        assert cx.crossover_point(df) == pytest.approx(x_star, rel=1e-12)
    assert math.isnan(cx.crossover_point(pd.DataFrame({"n_over_m": x, "dual_over_primal": 2 + x})))
    assert cx.crossover_point(pd.DataFrame({"n_over_m": x, "dual_over_primal": 0.5 + 0 * x})) == 0.1


@pytest.mark.parametrize("call, name", [
    (lambda: cx.flop_model(10, 11, "dual"), "N"),
    (lambda: cx.flop_model(10, 5, "both"), "form"),
    (lambda: cx.flop_model(10, 5, "primal", formation="gemm"), "formation"),
    (lambda: cx.flop_model(0, 1, "primal"), "M"),
    (lambda: cx.crossover_ratio_model(100, [0.0, 0.5]), "ratios"),
    (lambda: cx.crossover_ratio_model(100, [1.5]), "ratios"),
    (lambda: cx.crossover_point(pd.DataFrame({"x": [1]})), "n_over_m"),
    (lambda: cx.crossover_point(pd.DataFrame({"n_over_m": [0.5, 0.5], "dual_over_primal": [2, 3]})),
     "n_over_m"),
    (lambda: timing.measure_crossover(40, [0.5], repeats=0), "repeats"),
    (lambda: cx.eta_for_ratios(np.zeros((5, 2)), [0.5], start=1.0), "start"),
])
def test_bad_input_is_a_typed_error(call, name):
    with pytest.raises((ValueError, TypeError), match=name):
        call()


def test_flop_model_rejects_non_integer_sizes():
    with pytest.raises(TypeError, match="M"):
        cx.flop_model(10.5, 5, "primal")


# --------------------------------------------------------------------------- #
# crossover.py: eta search, measurement, asv reader
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("precision", HARDWARE)
def test_eta_for_ratios_hits_targets_and_leaves_x(precision):
    """N within max(1, tol M) of round(ratio M), and thresholded_cholesky at that eta keeps exactly N."""
    X, _ = datasets.crossover_data(200, seed=3)
    X0 = X.copy()
    ratios = [0.1, 0.35, 0.7, 1.0]
    df = cx.eta_for_ratios(X, ratios, precision=precision, tol=0.01)
    assert np.array_equal(X, X0)
    kernel = make_kernel("rbf", sigma2=cx.DATA_SIGMA2)
    for r, eta, N in zip(df.target_n_over_m, df.eta, df.N):
        assert abs(N - round(r * 200)) <= max(1, int(0.01 * 200)), (r, N)
        assert len(thresholded_cholesky(X, kernel, eta, precision=precision).indices) == N


def test_crossover_data_is_nested_and_deterministic():
    X1, y1 = datasets.crossover_data(50, seed=1)
    X2, y2 = datasets.crossover_data(80, seed=1)
    assert np.array_equal(X1, X2[:50]) and np.array_equal(y1, y2[:50])
    assert X2.shape == (80, DATA_FEATURES) and np.all((X2 >= 0) & (X2 <= 1))


def test_measure_crossover_tiny():
    """Both fits succeed; N is the eta table's; the ratios are the quotients of the columns beside them."""
    ratios = [0.2, 1.0]
    etas = cx.eta_for_ratios(datasets.crossover_data(60)[0], ratios)
    df = timing.measure_crossover(60, ratios, repeats=2, etas=etas)
    assert list(df.N) == list(etas.N)
    assert (df.primal_status == "ok").all() and (df.dual_status == "ok").all()
    assert np.allclose(df.dual_over_primal, df.dual_seconds / df.primal_seconds, rtol=1e-15)
    assert np.allclose(df.fit_dual_over_primal, df.dual_fit_seconds / df.primal_fit_seconds, rtol=1e-15)
    model = cx.crossover_ratio_model(60, df.N / 60)
    assert np.allclose(df.model_dual_over_primal, model.dual_over_primal, rtol=1e-15)
    assert (df.primal_seconds <= df.primal_fit_seconds).all()
    assert (df.dual_seconds <= df.dual_fit_seconds).all()


def _asv_result(date, commit, values):
    """An asv (api 2) result file holding the crossover benchmarks, values = f(column, combo)."""
    M, R, F, P = [500, 4000], [0.5, 1.0], ["blas3", "as-described"], ["float32", "float64"]
    full = [[repr(v) for v in M], [repr(v) for v in R], [repr(v) for v in F], [repr(v) for v in P]]
    dual = [full[0], full[1], full[3]]
    results = {}
    for column, names in asv_import.ASV_BENCHMARKS.items():
        # every crossover benchmark is split by size as in bench_crossover: M = 500 in ElsCrossover
        # (ElsPrimalTime, ElsDualTime), M = 4000 in the *Large classes (left out of the quick pass)
        assert len(names) == 2, (column, names)
        parts = [(names[0], M[:1]), (names[1], M[1:])]
        for name, Ms in parts:
            params = [[repr(v) for v in Ms]] + (dual if column == "dual_fit_seconds" else full)[1:]
            combos = itertools.product(Ms, R, P) if column == "dual_fit_seconds" else itertools.product(Ms, R, F, P)
            results[name] = [[values(column, c) for c in combos], params, "v", 0, 1.0]
    return {"commit_hash": commit, "env_name": "env", "date": date, "params": {"machine": "box"},
            "result_columns": ["result", "params", "version", "started_at", "duration"],
            "results": results, "version": 2}


def test_load_asv_crossover(tmp_path):
    """Latest file wins; rows per (M, ratio, formation, precision); dual time shared; None/NaN for skips."""
    assert asv_import.load_asv_crossover(tmp_path / "nothing") is None
    (tmp_path / "box").mkdir()
    (tmp_path / "box" / "machine.json").write_text("{}")
    assert asv_import.load_asv_crossover(tmp_path) is None

    def values(column, c):
        if column == "primal_fit_seconds" and c[2] == "as-described" and c[0] == 4000:
            return None  # skipped by the budget rule
        return {"primal_fit_seconds": 1.0, "dual_fit_seconds": 2.0 + c[1], "dual_over_primal": 3.0,
                "model_dual_over_primal": 4.0, "n_over_m": c[1]}[column]

    (tmp_path / "box" / "old.json").write_text(json.dumps(_asv_result(1, "old", lambda *a: 9.0)))
    (tmp_path / "box" / "new.json").write_text(json.dumps(_asv_result(2, "new", values)))
    df = asv_import.load_asv_crossover(tmp_path)
    assert len(df) == 16 and set(df.commit_hash) == {"new"} and set(df.machine) == {"box"}
    assert np.allclose(df.dual_fit_seconds, 2.0 + df.target_n_over_m)
    assert list(df.N) == list((df.M * df.target_n_over_m).round().astype(int))
    skipped = (df.formation == "as-described") & (df.M == 4000)
    assert df.primal_fit_seconds[skipped].isna().all() and (df.primal_fit_seconds[~skipped] == 1.0).all()
    curve = df[(df.M == 500) & (df.formation == "blas3") & (df.precision == "float64")]
    assert math.isnan(cx.crossover_point(curve))  # one curve; ratio 3 > 1 everywhere


def test_asv_run_wrapper_turns_stop_signals_into_keyboard_interrupt():
    """benchmarks/asv_run.py: SIGTERM reaches asv as KeyboardInterrupt (asv then kills its children)."""
    pytest.importorskip("asv")
    import signal

    asv_run = importlib.import_module("benchmarks.asv_run")
    saved = {s: signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)}
    argv = list(sys.argv)
    try:
        with pytest.raises(SystemExit) as exit_info:
            asv_run.main(["--version"])  # asv's own command line: prints its version, exits 0
        assert exit_info.value.code in (0, None)
        assert all(signal.getsignal(s) is asv_run._interrupt for s in saved)
        with pytest.raises(KeyboardInterrupt):
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(1)  # the handler runs at the next bytecode; never reached
    finally:
        for s, handler in saved.items():
            signal.signal(s, handler)
        sys.argv = argv
