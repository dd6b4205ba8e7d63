"""Issue 41: every grid row reaches the same kappa range where its formulation allows it.

The knobs of the ladder (``SolverInfo.ladder``) that take a formulation's
problem kappa past 1/u of float64, measured on real fits (records, never
timings), and the grid's range note, computed from the records where a row
cannot get there.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from lssvm_analysis.experiments import execute_task
from lssvm_analysis.experiments.fit_kind import accepts_combination
from lssvm_analysis.report import digits_grid as dg
from lssvm_analysis.report import sections_digits as sd
from lssvm_analysis.solvers import LadderKnob, get_solver

U64 = 2.0 ** -53


def _rows(monkeypatch, profile_kw: dict, key=None) -> pd.DataFrame:
    """Fit rows of the default profile's plan with ``profile_kw`` replaced: the spec ``key``, or the specs
    of the keys in it (a tuple)."""
    monkeypatch.setitem(sd.SETTINGS, "quick", sd.with_settings("default", **profile_kw))
    specs = sd.plan("quick", None)
    specs = [specs[k] for k in ((key,) if isinstance(key, str) else key)]
    return pd.DataFrame([execute_task(t) for s in specs for t in s.tasks() if accepts_combination(t)])


@pytest.mark.parametrize("name", ["els-primal", "els-dual"])
def test_abes_c_knob_takes_the_problem_past_float64s_limit_as_sqrt_c(monkeypatch, name):
    """Abe's knob: C past the ladder's top at eta = 1e-9 (``abe.C_LADDER``).

    Theory: the exact model is the ridge least squares min ||[H 1] z - y||^2 + ||v||^2 / C on the
    empirical features H = K(X, X_S) (:func:`~lssvm_analysis.solvers.abe.exact_els_model`), whose
    matrix [H 1; I/sqrt(C) 0] has sigma_max ~ ||[H 1]||_2 (independent of C once C >> 1) and, while
    1/sqrt(C) lies above the smallest singular value of H, sigma_min ~ 1/sqrt(C): kappa ~ ||[H 1]||
    sqrt(C), so kappa / sqrt(C) is one constant over the rungs; a factor 2 leaves room for the
    O(sigma_min(H) sqrt(C)) terms.  eta = 1e-9 keeps every one of sinc's 30 points (1e-3 keeps 23),
    so that kappa(H), not the threshold, bounds the problem.  mp50 fits: the hardware precisions
    break down on these rungs, and their rungs take the mp50 fit's kappa (rung_conditions).
    """
    rows = _rows(monkeypatch, {"solvers": (name,), "precisions": ("mp50",)}, key=f"ladder-C-{name}")
    rows = rows[rows.configuration == name].sort_values("C")
    assert len(rows) and (rows.status == "ok").all(), rows[["status", "message"]]
    assert list(rows.C) == list(get_solver(name).ladder[0].values) and (rows.eta == 1e-9).all()
    kappa = rows.problem_condition.to_numpy(float)
    scaled = kappa / np.sqrt(rows.C.to_numpy(float))
    assert (np.diff(kappa) > 0).all() and scaled.max() / scaled.min() < 2.0
    # past 1/u of float64, within one C-ladder rung (1.5 decades) of the widest rows' 5e17
    assert kappa[-1] > 1 / U64 and (rows.exact_digits >= dg.DIGITS_OK).all()
    # the C ladder's own top (C = 1e16, Abe's eta = 1e-3) stays at kappa ~ 2e9: the knob is what gets there
    top = _rows(monkeypatch, {"solvers": (name,), "precisions": ("mp50",), "C": (1e16,)}, key="ladder")
    assert (top.status == "ok").all() and top.problem_condition.max() < 1e-6 * kappa[-1]


@pytest.mark.parametrize("name", ["pcp-lssvm", "fs-lssvm", "rr-lssvr"])
def test_the_support_rung_at_0_9_n_takes_the_problem_past_float64s_limit(monkeypatch, name):
    """The support-set families' top rung, n_support = 0.9 n, raises the problem kappa past 1/u64.

    Theory: more support points add columns K(X, x_j) that the kernel's smoothness makes nearly
    dependent (lambda_min(K) ~ 2e-24 on sinc, n = 30, sigma2 = 10), so kappa of the reduced problem
    rises with the support; at C = 1e16 the ridge no longer bounds it.  mp50 fits, where the
    pivoted Cholesky (pcp) and the greedy selection (rr) take the whole support asked for (float64
    stops at its numerical rank, which the grid's note then states, :func:`dg.chosen_counts`).
    """
    key = f"ladder-n_support-{name}"
    rows = _rows(monkeypatch, {"solvers": (name,), "precisions": ("mp50",)}, key=key)
    rows = rows[rows.configuration == name].sort_values("n_support")
    assert len(rows) and (rows.status == "ok").all(), rows[["status", "message"]]
    assert list(rows.n_support) == [8, 15, 24, 27]
    kappa = rows.problem_condition.to_numpy(float)
    assert kappa[-1] > 100 * kappa[-2] and kappa[-1] > 1 / U64 and kappa[-2] < 1 / U64
    assert (rows.exact_digits >= dg.DIGITS_OK).all()


def test_every_row_reaches_the_widest_decade_or_says_why_from_its_records(monkeypatch):
    """On a small ladder (C = 10 and 1e16 and the knobs, mp50): every row reaches within
    RANGE_SLACK_DECADES of the widest row's top kappa, or carries a note computed from its records.

    lssvm-kkt is the widest row (kappa(K + I/C) ~ 5e17 at C = 1e16); els-primal gets there by its C
    knob, pcp-lssvm by its 0.9 n rung; op-lssvm's printed ``ranking = bordered-inverse`` MRSR keeps
    fewer columns than k_max asks, which its note states with the count the records hold.
    """
    names = ("lssvm-kkt", "els-primal", "pcp-lssvm", "op-lssvm")
    # the default configurations and op-lssvm's ranking option, on the C ladder and on the knobs
    keys = ("ladder", "ladder-ranking", "ladder-C-els-primal", "ladder-n_support-pcp-lssvm", "ladder-k_max-op-lssvm",
            "ladder-k_max-op-lssvm-ranking")
    rows = _rows(monkeypatch, {"solvers": names, "precisions": ("mp50",), "C": (1e1, 1e16)}, key=keys)
    rows = rows[rows.configuration.isin([*names[:3], "op-lssvm", "op-lssvm[ranking=bordered-inverse]"])]
    cells = dg.grid_cells(rows)
    widest = float(cells.widest_kappa_top.iloc[0])
    assert widest > 1 / U64
    for _, c in cells.iterrows():
        short = math.log10(widest) - math.log10(c.row_kappa_top) > dg.RANGE_SLACK_DECADES
        assert short == bool(c.range_note), (c.configuration, c.row_kappa_top, c.range_note)
    short = cells[cells.range_note != ""]
    assert list(short.configuration) == ["op-lssvm[ranking=bordered-inverse]"], short.configuration
    # the note's count is the records': the most columns its fits kept on the top k_max rung
    bi = rows[(rows.configuration == "op-lssvm[ranking=bordered-inverse]") & rows.k_max.notna()]
    top = bi[bi.k_max == bi.k_max.max()]
    kept = int(top.diag_k_star.max())
    assert kept < top.k_max.max()
    assert f"at k_max = {top.k_max.max():.0f} its fits keep {kept} (mp50) (diag_k_star)" in short.range_note.iloc[0]
    # spelt out under the grid, once per note, with its rows (not only in a cell's title)
    assert dg.range_sentences(cells) == [f"‡ op-lssvm[ranking=bordered-inverse]: {short.range_note.iloc[0]}."]


def test_a_knob_on_c_runs_its_own_c_and_names_what_a_fit_took():
    """A knob on C sets the C of its rungs (not the ladder's top C); ``chosen`` is a column name or ''."""
    knob = get_solver("els-primal").ladder[0]
    assert knob.param == "C" and knob.fixed == {"eta": 1e-9}
    grids = {n: g for n, k, g in sd.knob_rungs(sd.SETTINGS["default"]) if k.param == "C"}
    assert set(grids) == {"els-primal", "els-dual"} and grids["els-primal"]["C"] == list(knob.values)
    assert get_solver("op-lssvm").ladder[0].chosen == "diag_k_star"
    with pytest.raises(ValueError, match="chosen"):
        LadderKnob("k_max", (0.5,), per_point=True, chosen="diag k")
    with pytest.raises(ValueError, match="per_point"):
        LadderKnob("C", (0.5,), per_point=True)
    with pytest.raises(ValueError, match="values"):
        LadderKnob("C", (-1.0, 1e20))
