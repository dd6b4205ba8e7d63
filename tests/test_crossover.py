"""Structure of the rate-calibrated crossover model (no timed assertions).

* :func:`~lssvm_analysis.analysis.crossover.kernel_flops`: the closed forms of
  its table, and per form they add up to :func:`flop_model` less exactly the
  lower-order terms its docstring lists (scalar work no timed kernel does).
* :func:`~lssvm_analysis.analysis.crossover.rate_model`: each form's predicted
  seconds are the sum over its kernels (:data:`KERNELS`) of flops / rate, plus
  the measured times of the passes that count no flops; with one rate for
  every kernel and free passes it is the flop model (up to those lower-order
  terms); predictions grow with N for fixed rates and dual/primal falls.
* :func:`~lssvm_analysis.papers.abe.crossover_timing.measure_rates` gives a
  time and a rate for every kernel (a tiny smoke run: the rates are
  flops / time by construction, whatever the machine does).
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from lssvm_analysis.analysis import crossover as cx
from lssvm_analysis.papers.abe import crossover_timing as timing

SIZES = [(1, 1), (7, 3), (60, 20), (1000, 1000), (4000, 400)]
PASSES = ("sym_N", "sym_M", "cond_N", "cond_M")


def _kernels(form, formation="blas3"):
    return cx.KERNELS[("primal", formation) if form == "primal" else ("dual", None)]


def _rates(M, N, rate=None, pass_time=0.0):
    """A rates dict as measure_rates returns it: rate_<k> GFLOP/s, time_<k> consistent with it."""
    flops = cx.kernel_flops(M, N)
    out = {"M": M, "N": N, "precision": "float64"}
    for i, (k, f) in enumerate(flops.items()):
        r = rate if rate is not None else 0.5 + 0.37 * i  # distinct rates: a misplaced kernel shows
        out[f"rate_{k}"] = r if f else float("nan")
        out[f"time_{k}"] = f / (r * 1e9) if f else pass_time
    return out


@pytest.mark.parametrize("M, N", SIZES)
def test_kernel_flops_closed_forms(M, N):
    f = cx.kernel_flops(M, N)
    chol = {n: n ** 3 / 3 + n ** 2 / 2 + n / 6 for n in (M, N)}
    expect = {"center": 4 * M * N, "syrk_primal": M * N * (N + 1), "outer": 2 * M * N * N, "axpy": 3 * M * N,
              "syrk_dual": M * (M + 1) * N, "chol_N": chol[N], "chol_M": chol[M], "solve_N": 2 * N * N,
              "solve_M": 4 * M * M, "gemv_M": 2 * M * N, "sym_N": 0, "sym_M": 0, "cond_N": 0, "cond_M": 0}
    assert f == pytest.approx(expect, rel=1e-15)
    # every kernel of every form is counted, and nothing else
    assert set(f) == {k for ks in cx.KERNELS.values() for k in ks}


@pytest.mark.parametrize("M, N", SIZES)
@pytest.mark.parametrize("formation", cx.FORMATIONS)
def test_kernels_add_up_to_the_flop_model(M, N, formation):
    """flop_model - sum of the kernels = the lower-order terms no timed kernel performs (kernel_flops)."""
    f = cx.kernel_flops(M, N)
    rest = {"primal": 2 * N + (N if formation == "blas3" else 3 * N * N + N), "dual": 5 * M}
    for form in cx.FORMS:
        total = cx.flop_model(M, N, form, formation=formation)["total"]
        counted = sum(f[k] for k in _kernels(form, formation))
        assert total - counted == pytest.approx(rest[form], rel=1e-9, abs=1e-13 * total)


@pytest.mark.parametrize("formation", cx.FORMATIONS)
def test_rate_model_is_sum_of_flops_over_rates(formation):
    """Predicted seconds = sum of flops_k / rate_k over the form's kernels + the passes' measured times."""
    M, N = 1000, 160
    rates = _rates(M, N, pass_time=1e-3)
    m = cx.rate_model(rates, formation=formation)
    flops = cx.kernel_flops(M, N)
    for form in cx.FORMS:
        parts = {k: (flops[k] / (rates[f"rate_{k}"] * 1e9) if flops[k] else rates[f"time_{k}"])
                 for k in _kernels(form, formation)}
        assert {k: m[f"predicted_{form}_{k}"] for k in parts} == pytest.approx(parts, rel=1e-15)
        assert m[f"predicted_{form}_seconds"] == pytest.approx(sum(parts.values()), rel=1e-15)
    assert m["predicted_dual_over_primal"] == m["predicted_dual_seconds"] / m["predicted_primal_seconds"]
    assert sum(k in PASSES for k in _kernels("primal", formation)) == 2  # sym_N, cond_N: times
    flop = (cx.flop_model(M, N, "dual", formation=formation)["total"]
            / cx.flop_model(M, N, "primal", formation=formation)["total"])
    assert m["flop_dual_over_primal"] == pytest.approx(flop, rel=1e-15)


@pytest.mark.parametrize("formation", cx.FORMATIONS)
def test_rate_model_at_one_rate_is_the_flop_model(formation):
    """One rate for every kernel and free passes: the predicted ratio is the flop model's.

    The kernels leave out O(N^2 + M) of flop_model's total (test above) against
    >= M N^2 primal and >= M^3 / 3 dual flops: relative 8 / N at most.
    """
    M = 2000
    for N in (200, 700, 1400, 2000):
        m = cx.rate_model(_rates(M, N, rate=3.0), formation=formation)
        assert m["predicted_dual_over_primal"] == pytest.approx(m["flop_dual_over_primal"], rel=8 / N)
        total = cx.flop_model(M, N, "primal", formation=formation)["total"]
        assert m["predicted_primal_seconds"] == pytest.approx(total / 3e9, rel=8 / N)


@pytest.mark.parametrize("formation", cx.FORMATIONS)
def test_rate_model_is_monotone_in_n_at_fixed_rates(formation):
    """Fixed rates and pass times: primal and dual seconds grow with N, dual / primal falls.

    Every primal kernel's flops have degree >= 1 in N and every dual one's
    degree <= 1, so d log(dual/primal) / d log N <= 0 once the (constant)
    passes are included on both sides.
    """
    M = 1000
    Ns = np.arange(20, M + 1, 20)
    ms = [cx.rate_model(_rates(M, int(N), pass_time=2e-4), formation=formation) for N in Ns]
    primal = np.array([m["predicted_primal_seconds"] for m in ms])
    dual = np.array([m["predicted_dual_seconds"] for m in ms])
    ratio = np.array([m["predicted_dual_over_primal"] for m in ms])
    assert (np.diff(primal) > 0).all() and (np.diff(dual) > 0).all() and (np.diff(ratio) < 0).all()


def test_rate_model_checks_its_input():
    rates = _rates(60, 20)
    with pytest.raises(ValueError, match="formation"):
        cx.rate_model(rates, formation="loop")
    with pytest.raises(ValueError, match="N <= M"):
        cx.kernel_flops(20, 60)


def test_measure_rates_times_every_kernel():
    """A tiny run: a time for every kernel, rate = flops / time (NaN for the passes)."""
    rates = timing.measure_rates(60, 20, repeats=1)
    flops = cx.kernel_flops(60, 20)
    assert (rates["M"], rates["N"], rates["precision"]) == (60, 20, "float64")
    for k, f in flops.items():
        assert rates[f"time_{k}"] > 0, k
        if f:
            assert rates[f"rate_{k}"] == pytest.approx(f / rates[f"time_{k}"] / 1e9, rel=1e-12)
        else:
            assert math.isnan(rates[f"rate_{k}"])
    for formation in cx.FORMATIONS:  # the model runs on what the measurement gives
        m = cx.rate_model(rates, formation=formation)
        assert m["predicted_primal_seconds"] > 0 and m["predicted_dual_seconds"] > 0
