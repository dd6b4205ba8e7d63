"""Hyper-parameter tuning of any registered solver: Suykens ch. 3 §3.4.2 as one public function.

:func:`tune` evaluates an initial grid (by default the chapter's Sigma_0 x
Gamma_0 on (sigma2, C)), then ``refinements`` (the chapter's i_max) locally
refined grids around the best point (:func:`~.benchmarking.grid_search`),
scoring each point by k-fold cross-validation (:func:`~.validation.cross_validate`,
the same folds for every point) or by leave-one-out
(:func:`~.validation.leave_one_out`, closed form for the dense solvers).
The report's task kinds of the Suykens tables and of Vieira's Table 2 call it.

The result says where the optimum lies: ``on_edge`` names every axis whose
best value is the end of its initial grid, where the true optimum may lie
outside the range searched.

References
----------
J.A.K. Suykens et al., Least Squares Support Vector Machines, ch. 3 §3.4.2.
T. Van Gestel et al., Benchmarking least squares support vector machine
classifiers, Machine Learning 54 (2004) 5-32.
K. De Brabanter et al., LS-SVMlab Toolbox User's Guide, version 1.8 (2011), ``tunelssvm``.
"""
from __future__ import annotations

import math
import numbers
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import ArrayLike
from ..arith.base import Precision
import pandas as pd

from ..arith.precision import get_precision
from ..core.exceptions import UnsupportedPrecisionError
from ..core.validation import as_matrix, as_rng, as_vector, check_bool, check_finite, check_int, short_repr
from ..solvers import fit, get_solver
from .benchmarking import grid_search
from ..linalg.condest import conditioning_unread
from ..linalg.kernels import KERNEL_MEMO_BYTES, kernel_memo
from ..linalg.memory import available_bytes, bytes_per_word
from .cv_closed import CVShare, GridCV
from .validation import (GREATER_IS_BETTER, skipna_mean, check_folds, cv_score_split, leave_one_out,
                         resolve_scoring, split_folds)

__all__ = ["tune", "TuneResult", "SIGMA_FACTORS", "GAMMAS", "METHODS", "chapter_grid", "grid_edge"]

#: §3.4.2's Sigma_0 (each times sqrt(n), n the input dimension): sigma, not sigma^2.
SIGMA_FACTORS = (0.5, 5, 10, 15, 25, 50, 100, 250, 500)
#: §3.4.2's Gamma_0 (our C).
GAMMAS = (0.01, 0.05, 0.1, 0.5, 1, 5, 10, 50, 100, 500, 1000)
#: How a grid point is scored.
METHODS = ("cv", "loo")
#: Relative distance in log10 under which a value counts as the end of its axis
#: (refined grids are built in log10 and clipped to the initial range, so the end
#: comes back as 10**log10(end), within a few ulps of it).
_EDGE_LOG10_TOL = 1e-9


def chapter_grid(n_inputs: int, kernel: str = "rbf") -> dict[str, list[float]]:
    """§3.4.2's initial grid: ``sigma2`` = (f sqrt(n))^2 for f in Sigma_0 (RBF only) and ``C`` in Gamma_0."""
    n = check_int("n_inputs", n_inputs, minimum=1)
    grid = {"C": [float(g) for g in GAMMAS]}
    if kernel == "rbf":
        grid = {"sigma2": [float(f * f * n) for f in SIGMA_FACTORS], **grid}
    return grid


@dataclass(frozen=True)
class TuneResult:
    """The outcome of :func:`tune`.

    Attributes
    ----------
    best : dict
        The best grid point (axis name -> value); ``{}`` when no point scored
        (every point failed or raised: see ``history``).
    params : dict
        The solver keywords of the best point (the fixed ``**params``, then
        ``transform(best)`` or ``best``): ``la.fit(solver, X, y, **params)``
        refits the tuned model.
    score : float
        Its CV (mean over folds) or LOO score in the scoring's own units; NaN
        when every point failed.
    scoring : str
    greater_is_better : bool
    method : {"cv", "loo"}
    on_edge : dict
        Axis name -> "low" or "high" for every axis (of more than one initial
        value) whose best value is the end of its initial grid; empty when the
        optimum is inside the grid.  ``bool(result.on_edge)`` flags a search
        that should be widened.
    history : pandas.DataFrame
        One row per evaluated point: the axis values, ``score`` (NaN for a
        failed point), ``stage`` (0 = initial grid, i = refinement i) and
        ``error`` (the message of an exception caught under
        ``error_score``, else "").
    route : dict
        How the points were scored: ``closed_form`` (bool), and with it how
        many kernels took each route (``eigen``, ``cholesky``) and how many
        points the closed form served (``points_closed_form``) or handed to
        direct per-fold fits (``points_direct``, the breakdown guard).
    """

    best: Mapping[str, float]
    params: Mapping[str, Any]
    score: float
    scoring: str
    greater_is_better: bool
    method: str
    on_edge: Mapping[str, str] = field(default_factory=dict)
    history: pd.DataFrame = field(default_factory=pd.DataFrame)
    route: Mapping[str, Any] = field(default_factory=dict)

    @property
    def n_evaluations(self) -> int:
        """Grid points scored (a point met again in a refinement is scored once)."""
        return len(self.history)


def _check_grid(grid, info, transform) -> dict[str, np.ndarray]:
    if not isinstance(grid, Mapping) or not grid:
        raise TypeError(f"expected grid as a non-empty mapping name -> values, got grid={grid!r:.80}")
    out = {}
    for name, values in grid.items():
        if transform is None and not info.accepts(name):
            raise ValueError(f"expected grid keys among the keywords of solver {info.name!r} "
                             f"{list(info.params)} (or a transform), got grid key {name!r}")
        try:
            v = np.asarray(values, dtype=float).ravel()
        except (TypeError, ValueError):
            raise TypeError(f"expected grid[{name!r}] as a sequence of numbers, got "
                            f"grid[{name!r}]={short_repr(values)}") from None
        if v.size == 0 or not np.all(np.isfinite(v)) or np.any(v <= 0):
            raise ValueError(f"expected grid[{name!r}] as finite positive values (the refinement is "
                             f"in log scale), got grid[{name!r}]={list(values)!r:.80}")
        out[name] = v
    return out


def _check_error_score(error_score):
    if isinstance(error_score, str) and error_score == "raise":
        return error_score
    if isinstance(error_score, bool) or not isinstance(error_score, numbers.Real):
        raise TypeError(f"expected 'raise' or a number for error_score, got error_score={error_score!r}")
    return float(error_score)


def grid_edge(values, best) -> str | None:
    """Where ``best`` lies on one searched axis: ``"low"`` / ``"high"`` at its smallest / largest
    value, None inside it (or when the axis has one value: nothing was searched there).

    The one edge test of the package (tuning results, the claims' CV tables): equal, or for
    positive values equal to within 1e-9 in log10 (a refined grid's points are powers).
    NaN entries of ``values`` are ignored; a NaN ``best`` is on no edge.
    """
    vals = np.asarray(values, dtype=float)
    vals = vals[~np.isnan(vals)]
    b = float(best)
    if vals.size == 0 or math.isnan(b):
        return None
    lo, hi = float(vals.min()), float(vals.max())
    if lo == hi:
        return None

    def at(edge):
        return b == edge or (b > 0 and edge > 0 and abs(math.log10(b) - math.log10(edge)) <= _EDGE_LOG10_TOL)

    return "low" if at(lo) else "high" if at(hi) else None


def _edges(grid: Mapping[str, np.ndarray], best: Mapping[str, float]) -> dict[str, str]:
    edges = {name: grid_edge(values, best[name]) for name, values in grid.items() if name in best}
    return {name: e for name, e in edges.items() if e is not None}


def _check_tune_args(info, solver, X, y, precision, seed, greater_is_better, method, refinements, points,
                     transform, error_score):
    """:func:`tune`'s arguments, checked before any fit: (X, y, greater_is_better, refinements,
    points, error_score) as the search uses them."""
    X = as_matrix(X, "X", allow_object=False)
    y = as_vector(y, "y", allow_object=False)
    check_finite(X, "X")
    check_finite(y.astype(float), "y")
    if X.shape[0] != y.shape[0]:
        raise ValueError(f"expected X and y with the same number of samples, got X.shape={X.shape}, "
                         f"y.shape={y.shape}")
    if not info.supports_precision(precision):  # UnknownPrecisionError names a precision that is no name
        raise UnsupportedPrecisionError(f"expected a precision in {info.supported_precisions()} for solver "
                                        f"{solver!r}, got precision={get_precision(precision).name!r}")
    if seed is not None:
        as_rng("seed", seed)
    if greater_is_better is not None:
        greater_is_better = check_bool("greater_is_better", greater_is_better)
    if method not in METHODS:
        raise ValueError(f"expected method in {METHODS}, got method={method!r}")
    refinements = check_int("refinements", refinements, minimum=0)
    points = check_int("points", points, minimum=2)
    if transform is not None and not callable(transform):
        raise TypeError(f"expected a callable or None for transform, got transform={transform!r}")
    error_score = _check_error_score(error_score)
    return X, y, greater_is_better, refinements, points, error_score


def tune(solver: str, X: ArrayLike, y: ArrayLike, *, grid: Mapping[str, Any] | None = None,
         refinements: int = 3, points: int = 3, method: str = "cv", folds: int | Sequence = 10,
         seed: int | np.random.Generator | None = None, scoring: str | Callable | None = None,
         greater_is_better: bool | None = None, transform: Callable[[dict], dict] | None = None,
         error_score: float | str = math.nan, precision: str | Precision = "float64", closed_form: bool = True,
         share: CVShare | None = None, **params: Any) -> TuneResult:
    """Tune a registered solver by §3.4.2's grid search refined ``refinements`` (i_max) times.

    Parameters
    ----------
    solver : str
        Registry name.
    X : (N, n) array_like, y : (N,) array_like
    grid : mapping name -> values > 0, optional
        The initial grid of each tuned keyword.  Default: the chapter's,
        :func:`chapter_grid` (sigma2 in (Sigma_0 sqrt(n))^2 for the RBF
        kernel, C in Gamma_0).  Values are refined in log10 scale and never
        leave [min, max] of the initial grid.
    refinements : int >= 0
        The chapter's i_max (3): refined grids after the initial one.
    points : int >= 2
        Points per axis of a refined grid (half-width halved per refinement).
    method : {"cv", "loo"}
        "cv": mean score over ``folds`` (the same folds for every point);
        "loo": leave-one-out, in closed form for the dense LS-SVM / KRR
        solvers (one fit per point), by N refits otherwise.
    folds : int, (train, test) pairs or a splitter
        As :func:`~lssvm_analysis.cross_validate` (``method="cv"`` only).
    seed : int or numpy.random.Generator, optional
        With an int ``folds``: folds of a seeded permutation (else contiguous).
    scoring : str or callable, optional
        As :func:`~lssvm_analysis.cross_validate`; default "accuracy" for
        classification, "mse" for regression.
    greater_is_better : bool, optional
        Direction; a named scoring knows its own (``GREATER_IS_BETTER``), a
        callable is taken as a cost (minimised) unless told otherwise, as
        LS-SVMlab's ``costfun``.
    transform : callable, optional
        ``transform(point) -> solver keywords`` for grids on other
        coordinates (e.g. the chapter's polynomial (tau, gamma) mapped to
        ``t`` and ``C``); default: the point's names are solver keywords.
    error_score : "raise" or float, default NaN
        Score of a point whose fit raised ValueError / ArithmeticError (e.g.
        a LIBSVM fold with one class); "raise" propagates.  The message is
        kept in ``history.error`` (no warning: outcomes are data).  A point whose
        fits returned a failed status (breakdown, non-convergence) scores
        NaN: it is never the best.
    precision : str
    closed_form : bool, default True
        Score the points by closed-form CV / LOO where it applies (Notes);
        False fits every fold directly (the reference the tests compare to).
    share : CVShare or CVShare.view(...), optional
        Kernels, factorizations and held-out values shared with other
        searches on the same data (:class:`~.cv_closed.CVShare`: LS-SVM and
        LS-SVM_F, the columns of a code, the degrees of a polynomial kernel,
        1-vs-1 subsets of one set).  Used by the closed form only; the
        selection and scores are those of an unshared search (the class's
        docstring says where rounding may differ).
    **params
        Fixed solver keywords (kernel, task, variants, ...).

    Returns
    -------
    TuneResult
        ``best``, ``params`` (refit with ``la.fit(solver, X, y, **params)``),
        ``score``, ``on_edge``, ``history``.

    Raises
    ------
    TypeError, ValueError
        Bad X, y (NaN, lengths), precision, seed, greater_is_better, grid,
        refinements, points, method, folds, scoring, error_score (named); a
        solver keyword the solver does not take or refuses (one fit at the
        grid's first point, before the search, lets the solver's own error
        through).

    See Also
    --------
    lssvm_analysis.LSSVMRegressor : with scikit-learn's ``GridSearchCV`` for
        plain (non-refined) grids.

    Notes
    -----
    **The chapter's protocol** (§3.4.2, Van Gestel et al. 2004): (1) 2/3 of
    the data for training and validation; (2) Sigma_0 x Gamma_0; (3) 10-fold
    CV accuracy at every point; (4) i_max = 3 times a locally refined grid
    around the best; (5) test once.  ``tune`` is steps (2)-(4) for any
    solver and scoring; the refinement rule (``points`` log-spaced values of
    half-width h_i = h_1 / 2^(i-1), h_1 half the larger gap of the initial
    best to its neighbours) is our reading of "locally refined", see
    :func:`~lssvm_analysis.analysis.benchmarking.grid_search`.  Cost: at most
    prod(len(grid)) + refinements points^d points, each ``folds`` fits
    (CV) or one fit and an inverse (LOO, dense solvers).

    **Closed form** (float32 / float64, lssvm-schur, lssvm-kkt,
    lssvm-fisher, krr, folds whose training sets complement their test
    sets): every point's held-out values come from one factorization of
    the whole set's kernel (:mod:`~lssvm_analysis.analysis.cv_closed`: an
    eigendecomposition shared by every C of a kernel width, or a Cholesky
    per C, chosen by a cost model; ``result.route`` says which), equal to
    the per-fold fits to the rounding of both (c N kappa u); the scores are
    then computed by the same scoring on the same folds.  Other solvers,
    precisions and folds, and points near a Cholesky breakdown, are fitted
    fold by fold.  Ties: the first
    best in evaluation order (the first axis varies slowest).

    **LS-SVMlab's tunelssvm, side by side** (user's guide 1.8):

    =====================================  ==========================================
    LS-SVMlab                              ``la.tune``
    =====================================  ==========================================
    ``gam``                                ``C`` (unchanged)
    ``sig2``, kernel exp(-d^2/(2 sig2))    ``sigma2 = 2 sig2`` (``la.from_lssvmlab``)
    ``type`` 'f' / 'c'                     ``task="regression"`` / ``"classification"``
    ``costfun='crossvalidatelssvm'``       ``method="cv"``, ``folds`` (its ``costargs{1}``)
    ``costfun='leaveoneoutlssvm'``         ``method="loo"`` (closed form here)
    ``costargs{2}``: 'mse', 'misclass'     ``scoring="mse"``, ``"error-rate"``
    ``optfun='gridsearch'`` (zooming)      the refined grid (``refinements``, ``points``)
    ``optfun='simplex'`` (Nelder-Mead)     no counterpart: grids only
    start values by coupled simulated      a fixed initial grid (default: the
    annealing (random)                     chapter's), hence deterministic
    search in log(gam), log(sig2)          refinement in log10 of every axis
    returns ``[gam, sig2, cost]``          ``TuneResult``: ``best``, ``score``,
                                           ``history`` of every point, ``on_edge``
    =====================================  ==========================================

    What differs: LS-SVMlab's result depends on the random annealing start
    and its search may leave any initial range, ours is reproducible and
    stays within the initial grid (hence ``on_edge``); its cost is always
    minimised, ours follows the scoring's direction; any registered solver
    and precision can be tuned here, not only the dense LS-SVM.

    Examples
    --------
    >>> import numpy as np, lssvm_analysis as la
    >>> rng = np.random.default_rng(0)
    >>> X = rng.uniform(-3, 3, (60, 1)); y = np.sinc(X[:, 0]) + 0.05 * rng.standard_normal(60)
    >>> res = la.tune("lssvm-schur", X, y, grid={"C": [0.1, 10, 1000], "sigma2": [0.1, 1, 10]},
    ...               refinements=2, method="loo")
    >>> sorted(res.best), res.scoring, res.n_evaluations > 9
    (['C', 'sigma2'], 'mse', True)
    >>> model = la.fit("lssvm-schur", X, y, **res.params)
    >>> res.on_edge  # empty: the optimum is inside the grid  # doctest: +SKIP
    {}
    """
    info = get_solver(solver)
    X, y, greater_is_better, refinements, points, error_score = _check_tune_args(
        info, solver, X, y, precision, seed, greater_is_better, method, refinements, points, transform, error_score)
    if grid is None:
        grid = chapter_grid(X.shape[1], params.get("kernel", "rbf"))
    axes = _check_grid(grid, info, transform)
    task = params.get("task", info.tasks[0])
    _, scoring_name = resolve_scoring(scoring, task)
    if greater_is_better is None:
        greater_is_better = False if callable(scoring) else GREATER_IS_BETTER[scoring_name]
    sign = 1.0 if greater_is_better else -1.0
    split = split_folds(X, y, folds, seed=seed) if method == "cv" else None  # sliced once for every point
    errors: dict[tuple, str] = {}

    def keywords(point):
        return {**params, **(transform(dict(point)) if transform is not None else point)}

    # Bad input is refused before the search, as the solver refuses it: one fit on the whole data at the
    # first point of the grid, whose TypeError / ValueError propagate (the search below scores a point's
    # ValueError as error_score: a fold with one class is an outcome, C=-1 is not).
    with warnings.catch_warnings(), conditioning_unread():   # the search's own fits warn what this one would
        warnings.simplefilter("ignore")
        fit(solver, X, y, precision=precision, **keywords({k: v[0] for k, v in axes.items()}))

    closed_form = check_bool("closed_form", closed_form)
    if isinstance(share, CVShare):
        share = share.view()
    if share is not None and not hasattr(share, "column_of"):
        raise TypeError(f"expected a CVShare or CVShare.view(...) for share, got share={short_repr(share)}")
    closed = None if not closed_form else _closed_form(solver, X, y, folds, seed, method, precision, scoring, task,
                                                       axes, keywords, points, share)

    def score(kw):
        fast = closed.score(kw) if closed is not None else None
        if fast is not None:
            return fast if method == "loo" else skipna_mean(np.asarray(fast, dtype=np.float64))
        # the direct path reads the fold fits' models only: their condition estimates are not made
        with conditioning_unread():
            if method == "loo":
                return leave_one_out(solver, X, y, scoring=scoring, precision=precision, **kw)
            return cv_score_split(solver, split, scoring=scoring, precision=precision, **kw)

    def objective(point):
        try:
            return sign * score(keywords(point))
        except (ValueError, ArithmeticError) as err:
            if error_score == "raise":
                raise
            errors[tuple(point.values())] = f"{type(err).__name__}: {err}"
            return sign * error_score

    # every C of a grid at one kernel width fits the same fold kernels: the memo holds all of them
    with kernel_memo(_fold_memo_bytes(X.shape[0], len(split) if split is not None else X.shape[0], precision)):
        best, best_score, hist = grid_search(objective, {k: list(v) for k, v in axes.items()},
                                             refinements=refinements, points=points)
    rows = [{**p, "score": sign * s if math.isfinite(s) else math.nan, "stage": stage,
             "error": errors.get(tuple(p.values()), "")} for p, s, stage in hist]
    scored = math.isfinite(best_score)
    best = dict(best) if scored else {}
    return TuneResult(best=best, params=keywords(best) if scored else dict(params),
                      score=sign * best_score if scored else math.nan, scoring=scoring_name,
                      greater_is_better=bool(greater_is_better), method=method,
                      on_edge=_edges(axes, best), history=pd.DataFrame(rows),
                      route=_route(closed))


def _fold_memo_bytes(n: int, folds: int, precision) -> int:
    """Bytes of every fold's kernel matrices at one kernel width, for the search's :func:`kernel_memo`.

    A fold's training kernel and its test-by-training kernel take n_train (n_train + n_test) = n n_train
    words, (folds - 1) n^2 over the folds.  The memo must hold all of them: the search visits the folds in
    the same order for every C, so a least-recently-used store one fold short of a cycle keeps nothing
    that is asked again (measured on Suykens' cmc, n = 982, 10 folds, the Pol LS-SVM search's direct
    fits: 1622 polynomial kernels formed, 31 of its 80 CPU-s, under the memo's default 64 MiB against
    the 62 MiB + 7 MiB a cycle needs).  At least the default, at most an eighth of the memory available
    now (beyond it the matrices are formed again, as before).
    """
    need = (max(int(folds), 2) - 1) * float(n) * n * bytes_per_word(precision) * 1.25 + 2 ** 20
    return int(max(KERNEL_MEMO_BYTES, min(need, available_bytes() / 8)))


def _route(closed) -> dict:
    """How the points were scored: the closed form's routes per kernel, points served and fitted directly."""
    if closed is None:
        return {"closed_form": False}
    return {"closed_form": True, **closed.routes, "points_closed_form": closed.served,
            "points_direct": closed.fallbacks}


def _closed_form(solver, X, y, folds, seed, method, precision, scoring, task, axes, keywords, points, share=None):
    """A :class:`~.cv_closed.GridCV` where the closed form serves the search, else None.

    It serves the dense LS-SVM / KRR solvers in float32 / float64 with folds whose training sets are
    the complements of their test sets (k-fold, LOO); its cost model is told how many C each kernel of
    the initial grid has (a refined grid: ``points``).
    """
    if not GridCV.applies(solver, precision):
        return None
    tests = None
    if method == "cv":
        pairs = check_folds(folds, X, y, seed=seed)
        if any(len(tr) + len(te) != len(y) for tr, te in pairs):
            return None
        tests = [te for _, te in pairs]
    counts: dict = {}
    names = list(axes)
    for combo in np.array(np.meshgrid(*[axes[k] for k in names], indexing="ij")).reshape(len(names), -1).T:
        try:
            kw = keywords(dict(zip(names, (float(c) for c in combo))))
            key = GridCV.kernel_key(kw)[1]
        except (TypeError, ValueError, ArithmeticError):  # the search scores or raises it, as before
            continue
        counts.setdefault(key, set()).add(kw.get("C", 1.0))
    score_fn, _ = resolve_scoring(scoring, task)
    return GridCV(solver, X, y, tests, score_fn=score_fn, precision=precision,
                  n_c=lambda key: len(counts.get(key, ())) or points, share=share)
