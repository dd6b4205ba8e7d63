"""``la.compare``: the answer grid of the report, for the user's own data.

>>> res = la.compare(X, y, precisions=["float32", "float64"], out="compare-out")   # doctest: +SKIP
>>> print("\\n".join(res.answers.sentence))                                         # doctest: +SKIP

The user's (X, y) join the data-set registry under a name derived from their
content (:func:`lssvm_analysis.datasets.register`), so the sweeps are the
report's own: kind "fit" with its exact-model columns, each solver's variants
one option at a time (printed and stable, :func:`.sections_digits.variant_specs`),
content-keyed tasks in a resumable SQLite store, on local processes or a Dask
cluster.  The records become a tidy frame and one verdict per solver
(:mod:`lssvm_analysis.analysis.compare`); with ``out`` the grid figure (the
report's cells: the largest problem kappa up to which each form keeps 3
digits), the digits-vs-problem-kappa figure, the frame as CSV, the verdicts as
JSON and a one-page ``index.html`` are written there.
"""
from __future__ import annotations

import contextlib
import os
import hashlib
import html
import json
import math
import tempfile
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import matplotlib
import matplotlib.lines
from collections.abc import Callable, Sequence

import numpy as np
from numpy.typing import ArrayLike
import pandas as pd

from .. import __version__
from ..analysis.compare import (DEFAULT_PRECISIONS, TIME_BUDGET, answers, default_solvers, form_values,
                                headline, human_time, median_sigma2, number_text, n_forms, plan_size, precision_order, tidy)
from ..arith.precision import get_precision
from ..core.validation import (as_matrix, as_vector, check_bool, check_callable, check_int, check_open_interval,
                               short_repr)
from ..datasets import from_arrays, register
from ..experiments import SweepSpec
from ..experiments.runner import SchedulerLostError, run_sweeps, scheduler_address
from ..solvers import get_solver
from .build import dask_client, prepare_out
from .paths import check_out_path, check_scheduler, check_store_path
from .digits_grid import grid_cells, grid_table
from .figures import log_axes, new_figure, precision_color, save_figure
from .sections_digits import grid_figure

__all__ = ["Comparison", "compare", "read_data", "DEFAULT_C", "FULL_C_LADDER", "LADDER_STEP", "SizeWarning"]

#: C without one of the user's: the ladder is then C / 1e3, C, C * 1e3 (= 0.01, 10, 1e4), as documented.
DEFAULT_C = 10.0
#: The wide ladder of ``full_ladder=True`` (C = 1 to 1e9: from a well-conditioned ridge to where
#: float32 loses every digit on most kernels); mpN is then run whatever its estimated cost.
FULL_C_LADDER = (1.0, 1e3, 1e6, 1e9)
#: The ladder around a user's C: C / LADDER_STEP, C, C * LADDER_STEP.
LADDER_STEP = 1e3


class SizeWarning(UserWarning):
    """``compare`` left out precisions or subsampled rows to stay within its time and memory plan."""


@dataclass(frozen=True)
class Comparison:
    """What :func:`compare` found.

    Attributes
    ----------
    frame : DataFrame
        One row per fit (:data:`~lssvm_analysis.analysis.compare.TIDY_COLUMNS`).
    answers : DataFrame
        One verdict per solver: ``form``, ``precision``, ``min_digits``, ``kappa_max``, ``sure``, ``sentence``.
    grid : DataFrame
        The report's grid for these data: rows solver [variant], columns precisions.
    dataset : str
        The registry name the data were given.
    files : dict
        Written file names by role (empty without ``out``).
    out : Path or None
        The output directory.
    headline : str
        The one answer for the data (:func:`~lssvm_analysis.analysis.compare.headline`): which form in
        which precision, and where the others lose digits.
    """

    frame: pd.DataFrame
    answers: pd.DataFrame
    grid: pd.DataFrame
    dataset: str
    files: dict = field(default_factory=dict)
    out: Path | None = None
    headline: str = ""


def read_data(path, target: str) -> tuple[np.ndarray, np.ndarray, tuple]:
    """``(X, y, feature names)`` of a CSV file (a header row; every column numeric) or an NPZ file
    (``target`` one of its arrays; X its array ``X``, else its other 1-D arrays as columns).

    Raises
    ------
    ValueError
        One line naming the file and what is wrong: missing, not CSV/NPZ, no
        column ``target``, a column that is not numeric, no feature column.
    """
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"expected a CSV or NPZ file, got --data {str(path)!r} (no such file)")
    if path.suffix.lower() == ".npz":
        try:
            with np.load(path, allow_pickle=False) as z:
                arrays = {k: z[k] for k in z.files}
        except (OSError, ValueError) as exc:
            raise ValueError(f"expected an NPZ file, got --data {str(path)!r} ({exc})") from None
        if target not in arrays:
            raise ValueError(f"expected a target array among {sorted(arrays)} in {str(path)!r}, got --target {target!r}")
        y = arrays.pop(target)
        if "X" in arrays:
            X, names = arrays["X"], tuple(f"x{i}" for i in range(np.atleast_2d(arrays["X"]).shape[-1]))
        else:
            names = tuple(k for k, v in arrays.items() if np.ndim(v) == 1)
            X = np.column_stack([arrays[k] for k in names]) if names else np.empty((len(y), 0))
    else:
        X, y, names = _read_csv(path, target)
    try:
        X, y = np.asarray(X, dtype=np.float64), np.asarray(y, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"expected numeric arrays in {str(path)!r}, got {exc}") from None
    if X.ndim != 2 or X.shape[1] == 0 or y.ndim != 1 or len(y) != len(X):
        raise ValueError(f"expected feature columns and a target of {len(y)} rows in {str(path)!r}, "
                         f"got X.shape={X.shape}, y.shape={y.shape}")
    for what, a in (("X", X), (f"--target {target!r}", y)):
        bad = np.argwhere(~np.isfinite(a))
        if bad.size:
            where = f"row {bad[0][0]}" + (f", column {names[bad[0][1]]!r}" if a.ndim == 2 else "")
            raise ValueError(f"expected finite values in {str(path)!r}, got {float(a[tuple(bad[0])])!r} "
                             f"in {what} at {where}")
    if len(y) < MIN_ROWS:
        raise ValueError(f"expected at least {MIN_ROWS} data rows in {str(path)!r} (some to fit, some held out "
                         f"to test), got {len(y)}")
    return X, y, names


#: Fewest rows ``compare`` takes from a file: a quarter are held out to test, and a fit needs a few.
MIN_ROWS = 8


def _read_csv(path: Path, target: str):
    """X, y and feature names of a CSV file; a bad cell is named by column, row (0-based, as in
    pandas) and file line, and quoted."""
    try:
        df = pd.read_csv(path, dtype=str, keep_default_na=False, skipinitialspace=True)
    except (pd.errors.ParserError, UnicodeDecodeError, pd.errors.EmptyDataError) as exc:
        raise ValueError(f"expected a CSV file with a header row, got --data {str(path)!r} "
                         f"({type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''})") from None
    if target not in df.columns:
        raise ValueError(f"expected a target column among {list(df.columns)} in {str(path)!r}, "
                         f"got --target {target!r}")
    if not len(df):
        raise ValueError(f"expected data rows under the header of {str(path)!r}, got a header only "
                         f"(columns {list(df.columns)})")
    out = {}
    for col in df.columns:
        text = df[col].str.strip()
        num = pd.to_numeric(text, errors="coerce")
        missing = text.eq("") | text.str.lower().isin(("na", "nan", "n/a", "null", "none"))
        bad = num.isna() & ~missing
        for mask, what in ((bad, "a number"), (missing, "a value")):
            if mask.any():
                i = int(np.flatnonzero(mask.to_numpy())[0])
                raise ValueError(f"expected {what} in every cell of {str(path)!r}, got {df[col].iloc[i]!r} in "
                                 f"column {str(col)!r}, row {i} (line {i + 2} of the file)")
        out[col] = num.to_numpy(dtype=np.float64)
    names = tuple(str(c) for c in df.columns if c != target)
    X = np.column_stack([out[c] for c in df.columns if c != target]) if names else np.empty((len(df), 0))
    return X, out[target], names


def _ladder(C, ladder: bool, full: bool) -> tuple:
    if C is None and full:
        return FULL_C_LADDER
    if C is None:
        C = DEFAULT_C
    if isinstance(C, bool) or not isinstance(C, (int, float, np.integer, np.floating)):
        raise TypeError(f"expected a number C > 0, got C={C!r}")
    C = float(C)
    if not (math.isfinite(C) and C > 0):
        raise ValueError(f"expected C > 0, got C={C!r}")
    return (C / LADDER_STEP, C, C * LADDER_STEP) if ladder else (C,)


def _say(line: str, say) -> None:
    """The plan's one line: to ``say`` (the CLI prints it), else a :class:`SizeWarning`."""
    if not line:
        return
    if say is None:
        warnings.warn(line, SizeWarning, stacklevel=3)
    else:
        say(line)


def _check_precisions(precisions) -> list[str]:
    """The precision names (one str is one precision, as for ``solvers``); an unknown name or an entry
    that is not a str is refused naming ``precisions`` and quoting it."""
    names = [precisions] if isinstance(precisions, str) else precisions
    try:
        precs = [get_precision(p).name for p in names]
    except (TypeError, ValueError) as exc:   # UnknownPrecisionError is a ValueError: its type is kept
        raise type(exc)(f"{exc}, in precisions={short_repr(precisions)}") from None
    if not precs:
        raise ValueError(f"expected at least one precision, got precisions={short_repr(precisions)}")
    return precs


def _check_solvers(names, task: str) -> list[str]:
    if names is None:
        return default_solvers(task)
    if isinstance(names, str):
        names = [names]
    out = []
    for n in names:
        info = get_solver(n)
        if task not in info.tasks:
            raise ValueError(f"expected solvers of task {task!r}, got solver={n!r} (tasks {info.tasks})")
        out.append(info.name)
    if not out:
        raise ValueError("expected at least one solver, got solvers=[]")
    return out


def compare(X: ArrayLike, y: ArrayLike, *, task: str | None = None, solvers: str | Sequence[str] | None = None,
            precisions: str | Sequence[str] = DEFAULT_PRECISIONS, C: float | None = None,
            sigma2: float | None = None, ladder: bool = True, out: str | os.PathLike | None = None,
            store: str | os.PathLike | None = None, n_jobs: int | None = 1, scheduler: str | None = None,
            dask_workers: int | None = None, progress: bool | str = False, seed: int = 0,
            test_fraction: float = 0.25, name: str | None = None, full_ladder: bool = False,
            max_rows: int | str | None = "auto", budget: float = TIME_BUDGET, all_forms: bool = False,
            say: Callable[[str], None] | None = None) -> Comparison:
    """Which form of each solver, in which precision, on these data, and how sure.

    Parameters
    ----------
    X : (n, d) array
    y : (n,) array
        Targets, or two class labels (any two values; the larger is +1).
    task : {"regression", "classification"}, optional
        Default: classification when y has exactly two distinct values.
    solvers : list of str, optional
        Default: every registered solver of the task with an exact model
        (a plugin's included); each runs in its default form and its printed variants
        (:func:`~lssvm_analysis.analysis.compare.form_values`), one option at a time.
    precisions : list of str (or one str)
        Default float32, float64, longdouble, and mp50 where the plan's estimate affords it (those a
        solver does not run in are left out).
    C : float, optional
        With ``ladder`` the ladder is C / 1e3, C, C * 1e3; only C without it.
        Default: :data:`DEFAULT_C_LADDER`.
    sigma2 : float, optional
        RBF width; default the median squared distance between training points.
    out : path, optional
        Write the figures, ``compare.csv``, ``answers.json`` and ``index.html`` there (a directory,
        created if need be; a path that is or lies below a file is refused before any work).
    store : path, optional
        The SQLite record store (rerun: stored fits are reused).  Default
        ``out/compare.sqlite``, or a temporary file without ``out``.  A directory, or a path below
        a file, is refused before any work.
    n_jobs : int or None
        Local worker processes (1: in this process; None or -1: all cores).
    scheduler, dask_workers
        Run the sweeps on a Dask cluster (an address such as "tcp://host:8786", whose form is checked
        before any work) or a LocalCluster of N workers.
    seed, test_fraction
        The random division into training and test rows (the test rows give
        ``prediction_digits`` and the test error).
    name : str, optional
        Registry name of the data (default: ``user-<content hash>``).
    all_forms : bool
        Every variant of each solver instead of the default form and its printed variants.
    full_ladder : bool
        Without ``C``: the wide ladder 1, 1e3, 1e6, 1e9 instead of 0.01, 10, 1e4; and mpN precisions
        are run whatever their estimated cost.
    max_rows : "auto", int or None
        Before any work the time and memory are estimated (:func:`~lssvm_analysis.analysis.compare.plan_size`):
        "auto" leaves out the default mpN precision, then subsamples the rows (seeded), to stay within
        ``budget`` seconds and half the available memory; an int caps the rows; None refuses instead of
        subsampling (ValueError with the estimate).  What was decided is one line (``say``, else a
        :class:`SizeWarning`).
    budget : float
        Seconds the run is planned for (estimated, on all the workers).
    say : callable, optional
        Called with the plan's one line (the command line prints it on stderr).

    Returns
    -------
    Comparison

    Raises
    ------
    ValueError, TypeError
        Bad data (non-finite, mismatched shapes, one class), an unknown or
        unsuitable solver or precision, a bad C / sigma2, a scheduler address
        that is not one.
    OutputPathError, StoreError
        ``out`` or ``store`` that cannot be used (see above).
    """
    X_arr = np.array(as_matrix(X, "X", allow_object=False), dtype=np.float64)   # text refused, not parsed
    y_arr = np.array(as_vector(y, "y", allow_object=False), dtype=np.float64)
    ladder = check_bool("ladder", ladder)
    full_ladder = check_bool("full_ladder", full_ladder)
    all_forms = check_bool("all_forms", all_forms)
    Cs = _ladder(C, ladder, full_ladder)
    if max_rows not in ("auto", None):
        check_int("max_rows", max_rows, minimum=4)
    if isinstance(budget, bool) or not isinstance(budget, (int, float)) or not (budget > 0 and math.isfinite(budget)):
        raise ValueError(f"expected a number of seconds budget > 0, got budget={budget!r}")
    if dask_workers is not None:
        check_int("dask_workers", dask_workers, minimum=1)
    check_open_interval("test_fraction", test_fraction, 0.0, 1.0)
    check_callable("say", say)
    if len(X_arr) != len(y_arr):
        raise ValueError(f"expected as many rows in y as in X, got X.shape={X_arr.shape}, y.shape={y_arr.shape}")
    precs = _check_precisions(precisions)
    out, store = check_out_path("out", out), check_store_path("store", store)   # nothing created yet
    check_scheduler("scheduler", scheduler)
    task0 = task or ("classification" if len(np.unique(y_arr)) == 2 else "regression")
    names0 = _check_solvers(solvers, task0) if task0 in ("regression", "classification") else []
    if n_jobs is not None and n_jobs != -1:
        check_int("n_jobs", n_jobs, minimum=1)
    workers = (os.cpu_count() or 1) if n_jobs in (None, -1) else (dask_workers or n_jobs or 1)
    plan = plan_size(len(X_arr), train_fraction=1 - float(test_fraction), solvers=names0,
                     configs=n_forms(names0, all_forms=all_forms), precisions=precs,
                     n_C=len(Cs), workers=workers if scheduler is None else max(1, workers), budget=budget,
                     max_rows=max_rows, all_forms=all_forms,
                     drop_precisions=() if (full_ladder or precisions is not DEFAULT_PRECISIONS) else ("mp",))
    if task0 == "regression" and len(y_arr) and np.ptp(y_arr) == 0:
        _say(f"compare: warning: the target is constant (every value {float(y_arr[0])!r}): the exact model is "
             "alpha = 0 with bias b = y, so the digits measure only how each solver finds a zero "
             "(is --target the column you meant?)", say)
    if plan.action == "refuse":
        raise ValueError(plan.line + " (max_rows=None, --no-subsample)")
    precs = list(plan.precisions)
    coverage = _coverage(plan, names0, all_forms, Cs, workers)
    if say is not None:   # the command line: one line, what runs and what the plan changed
        say(f"{plan.line}; then {coverage.removeprefix('compare: ')}" if plan.line else coverage)
    else:
        _say(plan.line, say)
    if plan.rows < len(X_arr):
        keep = np.sort(np.random.default_rng(seed).choice(len(X_arr), plan.rows, replace=False))
        X_arr, y_arr = X_arr[keep], y_arr[keep]
    digest = hashlib.sha256(X_arr.tobytes() + y_arr.tobytes() + repr((X_arr.shape, task, seed, test_fraction))
                            .encode()).hexdigest()[:12]
    name = name or f"user-{digest}"
    loader = from_arrays(name, X_arr, y_arr, task=task, test_fraction=test_fraction)
    data = loader(seed=seed)            # validates now (shapes, finiteness, classes, test_fraction)
    names = _check_solvers(solvers, data.task)
    if sigma2 is not None and (isinstance(sigma2, bool) or not isinstance(sigma2, (int, float, np.integer,
                                                                                    np.floating))):
        raise TypeError(f"expected a number sigma2 > 0, got sigma2={sigma2!r}")
    s2 = median_sigma2(data.X_train, seed=seed) if sigma2 is None else float(sigma2)
    if not (math.isfinite(s2) and s2 > 0):
        raise ValueError(f"expected sigma2 > 0, got sigma2={sigma2!r}")
    register(name, loader, task=data.task, papers="user's data (compare)", replace=True)
    out_dir = None if out is None else prepare_out(out)
    values = {"C": list(Cs), "sigma2": [s2], "eta": [1e-3]}
    specs = _specs(name, names, precs, values, seed, all_forms)
    with contextlib.ExitStack() as stack:
        if store is None:
            store = (out_dir / "compare.sqlite" if out_dir is not None else
                     Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="lssvm-compare-"))) / "s.sqlite")
        executor = None
        if scheduler is not None or dask_workers is not None:
            executor = stack.enter_context(dask_client(scheduler, dask_workers))
            try:
                executor.run(register, name, loader, task=data.task, replace=True)   # the workers' registries
            except OSError as exc:  # the scheduler went away between connecting and the first task
                raise SchedulerLostError(scheduler_address(executor)) from exc
        # one queue for every spec (one pool of workers, no wait at the end of each sweep)
        frames = run_sweeps(specs, store, n_jobs=None if executor is not None else n_jobs, executor=executor,
                            progress=progress)
    records = pd.concat([f for f in frames if len(f)], ignore_index=True, sort=False) if frames else pd.DataFrame()
    frame = tidy(records)
    verdicts = answers(frame)
    cells = grid_cells(records) if len(records) else pd.DataFrame()
    grid = grid_table(cells, names) if len(cells) else pd.DataFrame()
    result = Comparison(frame, verdicts, grid, name, out=out_dir, headline=headline(frame, verdicts))
    if out_dir is not None:
        files = _write(out_dir, result, cells, records, meta={
            "dataset": name, "task": data.task, "n_train": int(data.X_train.shape[0]),
            "n_test": int(data.X_test.shape[0]), "n_features": int(data.X_train.shape[1]),
            "solvers": names, "precisions": precs, "C": list(Cs), "sigma2": s2, "seed": seed,
            "coverage": coverage, "plan": plan.line,
            "version": __version__})
        result = Comparison(frame, verdicts, grid, name, files, out_dir, result.headline)
    return result


def _coverage(plan, names, all_forms: bool, Cs, workers: int) -> str:
    """One line: the rows, forms, precisions and C ladder a run covers, its fits and estimated time."""
    forms = n_forms(names, all_forms=all_forms)
    which = ("every variant of each solver" if all_forms or n_forms(names, all_forms=True) == forms else
             f"each solver's default form and its printed variants; all_forms / --all-forms: all "
             f"{n_forms(names, all_forms=True)}")
    fits = forms * len(plan.precisions) * len(Cs)
    def count(k, word):
        return f"{k} {word}{'s' * (k != 1)}"

    return (f"compare: {plan.rows} rows; {count(forms, 'form')} of {count(len(names), 'solver')} ({which}) x "
            f"{', '.join(plan.precisions)} x C = {', '.join(number_text(c) for c in Cs)}: {count(fits, 'fit')}, "
            f"~{human_time(plan.seconds)} estimated on {workers} idle core{'s' * (workers != 1)}")


def _specs(dataset: str, names, precs, values: dict, seed: int, all_forms: bool) -> list[SweepSpec]:
    """Fit sweeps on the user's data set, one variant option at a time (as the report's
    :func:`~.sections_digits.variant_specs`), over the forms of
    :func:`~lssvm_analysis.analysis.compare.form_values`: the defaults and their printed variants,
    or every variant with ``all_forms``."""
    # no reference solve of each fit's linear system: its columns (solve_digits, backward_error) are not
    # on the page, and it cost ~40 % of a float fit's task at n = 375 (measured: 0.11-0.14 s of 0.23-0.39 s)
    kw = {"precisions": precs, "datasets": [dataset], "seeds": [seed], "options": {"reference": False}}

    def spec(suffix, members, extra):
        taken = {k for n in members for k in get_solver(n).params}
        grid = {k: list(v) for k, v in values.items() if k in taken}
        return SweepSpec(f"compare-{dataset}{suffix}", kind="fit", solvers=members, grid={**grid, **extra}, **kw)

    specs = [spec("", list(names), {})]
    options: dict[str, dict[str, list]] = {}
    for n in names:
        for opt, vals in form_values(n, all_forms=all_forms).items():
            options.setdefault(opt, {})[n] = vals
    for opt, by_solver in options.items():
        members = list(by_solver)
        specs.append(spec(f"-{opt}", members, {opt: list(dict.fromkeys(v for n in members for v in by_solver[n]))}))
    return specs


def _kappa_figure(out: Path, frame: pd.DataFrame):
    precs = sorted(frame["precision"].unique(), key=precision_order)
    fig, axs = new_figure(len(precs), 1, width=3.6, height=4.2, sharey=True)
    data = frame[["solver", "configuration", "literal", "precision", "C", "problem_condition", "model_digits"]].copy()
    colors = matplotlib.colormaps["tab20"]
    solver_color = {n: colors(i % 20) for i, n in enumerate(dict.fromkeys(data.solver))}
    for a, prec in zip(axs[0], precs):
        g = data[(data.precision == prec) & np.isfinite(pd.to_numeric(data.model_digits, errors="coerce"))]
        for conf, h in g.groupby("configuration", sort=True):
            h = h.sort_values("problem_condition")
            a.plot(h.problem_condition.astype(float), h.model_digits.astype(float),
                   ("--" if h.literal.any() else "-") + "o", ms=3, lw=1, color=solver_color[h.solver.iloc[0]])
        a.axhline(3.0, color=precision_color(prec), lw=0.8, ls=":")
        a.plot([], [], "k-", lw=1, label="stable form")
        a.plot([], [], "k--", lw=1, label="printed form")
        a.plot([], [], ":", color=precision_color(prec), lw=0.8, label="3 digits")
        log_axes(a, y=False)
        a.set_title(prec, fontsize=9)
        a.set_xlabel("problem κ")
        a.set_ylabel("model digits (vs the exact model)")
        a.legend(fontsize=6, loc="lower left")
    handles = [matplotlib.lines.Line2D([], [], color=c, lw=2, label=n) for n, c in solver_color.items()]
    fig.legend(handles=handles, loc="outside right center", fontsize=6.5, title="solver", title_fontsize=7)
    return save_figure(fig, data, out, "compare-digits-kappa",
                       "Correct digits of each fit's model against the exact model, against the condition of the "
                       "problem (the same for every form of a solver): one line per solver [variant] along the C "
                       "ladder; dashed: printed formulas.")


def _write(out: Path, res: Comparison, cells, records, meta: dict) -> dict:
    files = {}
    res.frame.to_csv(out / "compare.csv", index=False)
    files["csv"] = "compare.csv"
    (out / "answers.json").write_text(json.dumps({"meta": meta, "answers": json.loads(
        res.answers.to_json(orient="records"))}, indent=2), encoding="utf-8")
    files["json"] = "answers.json"
    figs = []
    if len(cells) and len(res.grid):
        figs.append(grid_figure(out, cells, res.grid))  # the report's own grid figure, on these data
        files["grid"] = figs[-1].png
    if len(res.frame):
        figs.append(_kappa_figure(out, res.frame))
        files["digits_kappa"] = figs[-1].png
    (out / "index.html").write_text(_page(res, figs, meta), encoding="utf-8")
    files["html"] = "index.html"
    return files


def _group_table(rows: pd.DataFrame) -> str:
    """The verdicts of one model group as a table, best first (cheapest precision, most digits)."""
    e = html.escape
    rows = rows.assign(_p=[precision_order(p) if p else math.inf for p in rows["precision"]],
                       _d=pd.to_numeric(rows["min_digits"], errors="coerce").fillna(-1.0))
    body = []
    for _, r in rows.sort_values(["_p", "_d"], ascending=[True, False]).iterrows():
        use = (f"{e(str(r['form']))} in {e(str(r['precision']))}" if r["precision"] else
               "no form holds in the precisions run")
        digits = f"{r['min_digits']:.1f}" if r["precision"] else "&lt; 3"
        body.append(f"<tr><td>{e(str(r['solver']))}</td><td>{use}</td><td>{digits}</td>"
                    f"<td>{e(str(r['sure']))}</td></tr>")
    return ("<table><thead><tr><th>solver</th><th>use</th><th>correct digits at the weakest C</th>"
            "<th>how sure</th></tr></thead><tbody>\n" + "\n".join(body) + "\n</tbody></table>")


def _groups(res: Comparison) -> str:
    """The solvers grouped by the model they compute: full, then reduced (with what they are measured
    against), each a table and its sentences."""
    e = html.escape
    a = res.answers
    model = a["model"] if "model" in a else pd.Series(["full"] * len(a), index=a.index)
    out = []
    for kind, title, note in (
            ("full", "Full model: every training point in the model",
             "Each fit against the exact model of its own problem on all the training points (the LS-SVM; "
             "krr without a bias, the weighted and robust LS-SVMs with their weights)."),
            ("reduced", "Reduced or sparse: a subset of points or columns chosen by the solver",
             "Digits against its own reduced problem (the k* columns / the support set it chose, frozen), "
             "not the full LS-SVM: they say how well the solver solves the problem it chose, not how close "
             "its model is to the full one.")):
        rows = a[model == kind]
        if not len(rows):
            continue
        sentences = "\n".join(f"<li>{e(s)}</li>" for s in rows.assign(
            _p=[precision_order(p) if p else math.inf for p in rows["precision"]]).sort_values("_p").sentence)
        out.append(f"<h2>{e(title)}</h2>\n<p>{e(note)}</p>\n{_group_table(rows)}\n"
                   f"<details><summary>one sentence per solver</summary><ul>\n{sentences}\n</ul></details>")
    return "\n".join(out)


def _page(res: Comparison, figs, meta: dict) -> str:
    e = html.escape
    pics = "\n".join(f'<figure><img src="{e(f.png)}" alt="{e(f.alt)}" style="max-width:100%">'
                     f'<figcaption>{e(f.caption)} (<a href="{e(f.csv)}">data</a>)</figcaption></figure>' for f in figs)
    table = res.grid.to_html(index=False, escape=True, border=0) if len(res.grid) else "<p>No grid.</p>"
    plan = f" {e(meta['plan'].removeprefix('compare: ').capitalize())}." if meta.get("plan") else ""
    return (f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>lssvm_analysis compare: "
            f"{e(meta['dataset'])}</title></head><body>\n<h1>Which formulation, in which precision, on your data</h1>\n"
            f"<p id=\"answer\"><strong>{e(res.headline)}</strong></p>\n"
            f"<p>{meta['n_train']} training and {meta['n_test']} test points, {meta['n_features']} features, task "
            f"{e(meta['task'])}; σ² = {meta['sigma2']:.4g}. What ran: "
            f"{e(meta.get('coverage', '').removeprefix('compare: '))}.{plan} A form holds when every C keeps at least "
            "3 correct digits of the exact model (the data's own problem, formed in extended precision and "
            "certified).</p>\n"
            f"{_groups(res)}\n<h2>The grid</h2>\n{table}\n{pics}\n"
            f"<p>Every fit: <a href=\"compare.csv\">compare.csv</a>; the verdicts: <a href=\"answers.json\">answers.json</a>. "
            f"lssvm_analysis {e(meta['version'])}.</p>\n</body></html>\n")
