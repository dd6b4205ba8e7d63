"""The one registry of solvers: tests, benchmarks, sweeps and the report iterate it.

A :class:`SolverInfo` says everything a caller would otherwise have to guess:
the tasks a solver solves, the keywords it takes (and which of them it
needs), its named variants, the precisions it runs in, the linear system it
forms, a small example problem and the a-priori backward-error bound of its
solve.  No caller inspects signatures or switches on solver names.

Variants
--------
Where a paper's formula is numerically fragile the solver offers it *as
printed* beside a stable reformulation, as the values of one keyword
(``formation="as-described"`` / ``"blas3"``, ``ranking="bordered-inverse"`` /
``"qr"``, ...).  Each value is a :class:`Variant` with a one-line description
and a ``literal`` flag (the paper's formula as printed).  The first value
registered for a keyword is its default.  :meth:`SolverInfo.configurations`
enumerates them like precisions.
"""
from __future__ import annotations

import importlib.metadata
import inspect
import itertools
import math
import types
import warnings
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from ..core.validation import as_rng, check_bool, check_str, short_repr
from ..core.exceptions import LSSVMWarning, UnknownSolverError
from ..arith.precision import get_precision, precisions as _precisions
from ..linalg.cost import TimeModel
from ..linalg.memory import PeakMemory
from ._declarations import SUPPORT_FRACTIONS, LadderKnob, Problem, Variant, variant

# Variant, LadderKnob, Problem, variant and SUPPORT_FRACTIONS (._declarations) are re-exported: the
# solver modules declare them beside register; la.fit is ._fit's
__all__ = ["SolverInfo", "DIRECT_FACTORIZATIONS", "Variant", "LadderKnob", "SUPPORT_FRACTIONS", "Problem", "TASKS",
           "RANDOM_KEYWORD", "register", "unregister", "solvers", "get_solver", "fit_params", "variant", "load_plugins",
           "PLUGIN_GROUP"]

#: The entry-point group through which installed packages register their solvers.
PLUGIN_GROUP = "lssvm_analysis.solvers"

TASKS = ("regression", "classification")

#: The one keyword through which a solver takes its random choices (seed or Generator).
RANDOM_KEYWORD = "rng"

#: LAPACK's acceptance threshold on (backward error) / (n u) (xPOT03/xGET03 ratio 30).
LAPACK_THRESHOLD = 30.0


def _example_data(task: str, n: int, rng) -> tuple[np.ndarray, np.ndarray]:
    """Sinc of the first input plus a small linear term; classification: sign about the median."""
    X = rng.uniform(-3, 3, (n, 2))
    y = np.sinc(X[:, 0]) + 0.05 * X[:, 1]
    if task == "classification":
        y = np.where(y > np.median(y), 1.0, -1.0)
    return X, y


def _default_backward_bound(fit, n: int) -> float:
    """c n u with c = 30: one backward-stable factorization and solve (LAPACK's test ratio)."""
    return LAPACK_THRESHOLD * n * get_precision(fit.precision).unit_roundoff


#: The dense direct factorizations a solver may declare (:attr:`SolverInfo.direct`).
DIRECT_FACTORIZATIONS = ("cholesky", "lu")


@dataclass(frozen=True)
class SolverInfo:
    """What the registry knows of a solver.

    Attributes
    ----------
    name : str
        Registry name, e.g. ``"lssvm-schur"``.
    func : callable
        ``func(X, y, *, precision, **params) -> Fit``.
    tasks : tuple of {"regression", "classification"}
    paper : str
        Seed paper key, the key its room registers ("suykens", "abe", "vieira", "zhao-sun", "chen-zhou", "baseline").
    equations : str
        The equations of the paper the solver implements.
    params : tuple of str
        Every keyword it takes besides ``precision``, in the order of its
        signature, read from the signature at registration (unified names: C,
        sigma2, eta, task, validation, n_support, the variant keywords, ...).
        A solver that makes random choices takes them from ``rng``
        (:attr:`takes_rng`), never from a global or unseeded generator.
    required : tuple of str
        Those of ``params`` a caller must give (no usable default; for
        ``lssvm-pruned``, ``validation``, or ``index`` in its place).  Sweeps
        leave out a solver whose required keywords their grid does not give.
    variants : tuple of Variant
        Named formulations, grouped by keyword; the first per keyword is the default.
    precisions : tuple of str or None
        The precisions it runs in; None means every registered one (and any mpN).
    system : callable or None
        ``system(X, y, fit, **params) -> (A, rhs, unpack)``: the linear system
        the solver solved, formed in ``fit.precision`` exactly as the solver
        formed it, so that the conformance battery can compare the fit with
        ``reference_solve(A, rhs)``; ``unpack(x)`` maps a solution vector to
        ``{"coef": ..., "bias": ...}``.  None for solvers that solve no single
        linear system.
    example : callable or None
        ``example(X, y, task, rng) -> dict``: keywords the example problem
        needs besides C, sigma2 and task (e.g. Abe's eta, a validation set).
    backward_bound : callable
        ``backward_bound(fit, n) -> float``: the a-priori normwise backward
        error of the fit's solution of its system of order n (default
        ``30 n u``: one backward-stable factorization and solve).
    description : str
        One line for listings and the report.
    exact_model : callable or None
        ``exact_model(X, y, fit, **params) -> formation.ExactProblem``: the
        *exact model* of the fit -- the paper's problem with X and y as
        given, the kernel and the system formed in extended precision, the
        fit's discrete choices (support, kept columns, k*) frozen -- as a
        system that ``reference_solve`` certifies, with the bound on its
        formation error and the definition of the fit's problem condition
        (:mod:`lssvm_analysis.exact.formation`).  The model error of a fit
        (the report's headline) is measured against it.  None: no exact
        model (the fit's rows say so, with ``exact_note``).
    peak : PeakMemory or None
        The measured peak memory of a fit, per precision, as a function of n
        and the family's second size r (support size, rank, selected
        features): declared once by the family, used by its up-front memory
        guard (``peak.ensure``), checked against a tracemalloc measurement by
        ``tests/test_fast_paths.py``.
    exact_note : str
        Why a solver has no ``exact_model`` hook (one sentence, recorded in
        the fit rows' ``exact_note``); empty for a solver with a hook.
    ladder : tuple of LadderKnob
        The paper's keywords that drive the condition of the formed system
        where C alone does not (extra rungs of the report's kappa ladder);
        empty when the C ladder already crosses every precision's limit.
    direct : tuple or None
        ``(factorization, right-hand sides)`` of a solver whose fit is one
        dense direct solve: ``("cholesky", k)`` of the n x n system with k
        right-hand sides, ``("lu", k)`` of the bordered (n+1) x (n+1) one.
        The float64 floors of ``benchmarks/bench_floors.py`` are derived from
        it (the same factorization by bare LAPACK calls); None otherwise.
    ridge_path : callable or None
        ``ridge_path(X, y, *, precision, **params) -> path`` for a solver whose
        formed matrix depends on C only through its ridge I/C: the work that
        does not depend on C (selection, kernel, Gram matrix) is done once, and
        ``path.fit(C)`` is ``fit(name, X, y, C=C, ...)`` (the same arithmetic,
        bit for bit), ``path.factor(C)`` the breakdown record of its Cholesky
        factorization of the matrix formed at C (None when it succeeds), with
        no solve.  C scans (breakdown searches) use it; None otherwise.
    condition_estimate : bool
        Whether every fit records a condition estimate of the matrix it
        factored (``diagnostics["kappa_estimate"]``, through ``make_fit(...,
        conditioning=...)``); default: whether it declares a ``system``.  The
        conformance battery checks it; suites that compare estimates read it.
    time : TimeModel or None
        The measured seconds of a fit, per engine, as a function of n, d and the family's second
        size (:class:`~lssvm_analysis.linalg.cost.TimeModel`): :func:`fit` refuses, before any
        work, a fit whose estimate exceeds its ``max_seconds`` by more than the model's margin.
        None (a plugin that declares none): its fits are never refused.
    """

    name: str
    func: Callable
    tasks: tuple
    paper: str
    equations: str
    params: tuple = ()
    required: tuple = ()
    variants: tuple = ()
    precisions: tuple | None = None
    system: Callable | None = None
    example: Callable | None = None
    backward_bound: Callable = _default_backward_bound
    description: str = ""
    exact_model: Callable | None = None
    peak: Any = None
    exact_note: str = ""
    ladder: tuple = ()
    direct: tuple | None = None
    ridge_path: Callable | None = None
    condition_estimate: bool = False
    time: TimeModel | None = None

    @property
    def declares_backward_bound(self) -> bool:
        """Whether the solver declared its own ``backward_bound`` (not the default 30 n u)."""
        return self.backward_bound is not _default_backward_bound

    @property
    def has_accuracy_hook(self) -> bool:
        """Whether anything can measure its accuracy: a ``system`` or an ``exact_model`` hook."""
        return self.system is not None or self.exact_model is not None

    # -- what it takes ------------------------------------------------------
    def accepts(self, keyword: str) -> bool:
        """Whether the solver takes ``keyword`` (e.g. "task", "validation", "n_support")."""
        return keyword in self.params

    @property
    def takes_task(self) -> bool:
        return "task" in self.params

    def task_keywords(self, task: str) -> dict[str, str]:
        """``{"task": task}`` for a solver that takes ``task``, else ``{}`` (LIBSVM's baselines
        know their task from their name): the keywords through which a caller says the task."""
        return {"task": task} if self.takes_task else {}

    @property
    def baseline(self) -> bool:
        """Whether the solver is a reference implementation outside the seed papers (LIBSVM's
        C-SVC and epsilon-SVR: paper ``"baseline"``), with its own iteration cap ``max_iter``."""
        return self.paper == "baseline"

    @property
    def takes_rng(self) -> bool:
        """Whether the solver makes random choices, drawn from its keyword ``rng`` (:data:`RANDOM_KEYWORD`).

        Every random choice of a registered solver (a random support set,
        candidate draws, prototype swaps) comes from this one keyword, an int
        seed or a ``numpy.random.Generator``; sweeps pass one derived from the
        task's seed, so that every precision and variant of one task makes the
        same draws and reruns reproduce them.
        """
        return RANDOM_KEYWORD in self.params

    def supported_precisions(self) -> list[str]:
        """The registered precisions it runs in (``precisions`` or every registered one)."""
        return list(self.precisions) if self.precisions is not None else _precisions()

    def supports_precision(self, precision) -> bool:
        name = get_precision(precision).name
        return self.precisions is None or name in self.precisions

    def task_for(self, task: str | None = None) -> str:
        """``task`` if given, else the solver's first task."""
        return self.tasks[0] if task is None else task

    # -- variants -----------------------------------------------------------
    def variant_options(self) -> dict[str, tuple[Variant, ...]]:
        """Variants by keyword, in registration order (the first is the default)."""
        out: dict[str, list] = {}
        for v in self.variants:
            out.setdefault(v.option, []).append(v)
        return {k: tuple(v) for k, v in out.items()}

    def default_variant(self) -> dict[str, str]:
        return {opt: vs[0].value for opt, vs in self.variant_options().items()}

    def configurations(self) -> list[dict[str, str]]:
        """Every combination of variant values (``[{}]`` for a solver without variants)."""
        opts = self.variant_options()
        values = [[v.value for v in vs] for vs in opts.values()]
        return [dict(zip(opts, combo)) for combo in itertools.product(*values)]

    def configuration_label(self, config: Mapping[str, str]) -> str:
        """``name`` or ``name[option=value, ...]`` for the non-default values of ``config``."""
        default = self.default_variant()
        diff = [f"{k}={v}" for k, v in config.items() if default.get(k) != v]
        return self.name + (f"[{', '.join(diff)}]" if diff else "")

    def check_variants(self, params: Mapping[str, Any]) -> None:
        """ValueError naming the keyword for a variant value the solver does not have."""
        for opt, vs in self.variant_options().items():
            if opt in params:
                allowed = tuple(v.value for v in vs)
                if params[opt] not in allowed:
                    raise ValueError(f"expected {opt} in {allowed} for solver {self.name!r}, "
                                     f"got {opt}={params[opt]!r}")

    # -- example problem -----------------------------------------------------
    def example_problem(self, task: str | None = None, n: int = 40, rng=None, *,
                        C: float = 10.0, sigma2: float = 1.0) -> Problem:
        """A small problem this solver accepts, for batteries, benchmarks and sweeps.

        Parameters
        ----------
        task : {"regression", "classification"}, optional
            Default: the solver's first task.
        n : int
            Number of training points.
        rng : numpy.random.Generator or int, optional
        C, sigma2 : float
            Passed when the solver takes them.

        Returns
        -------
        Problem
            ``fit(self.name, p.X, p.y, **p.params)`` runs.
        """
        task = self.task_for(task)
        if task not in self.tasks:
            raise ValueError(f"expected a task in {self.tasks} for solver {self.name!r}, got task={task!r}")
        rng = as_rng("rng", rng)
        X, y = _example_data(task, n, rng)
        params: dict[str, Any] = {}
        if self.accepts("C"):
            params["C"] = C
        if self.accepts("sigma2"):
            params["sigma2"] = sigma2
        params.update(self.task_keywords(task))
        if self.example is not None:
            params.update(self.example(X, y, task, rng))
        return Problem(X, y, task, params)


_SOLVERS: dict[str, SolverInfo] = {}


def register(name: str, *, tasks: Sequence[str], paper: str, equations: str, required: Sequence[str] = (),
             variants: Sequence[Variant] = (), precisions: Sequence[str] | None = None,
             system: Callable | None = None, example: Callable | None = None,
             backward_bound: Callable | float | None = None, description: str = "",
             exact_model: Callable | None = None, peak: PeakMemory | None = None, exact_note: str = "",
             ladder: Sequence[LadderKnob] = (), direct: Callable | None = None,
             ridge_path: Callable | None = None,
             condition_estimate: bool | None = None, time: TimeModel | None = None) -> Callable[[Callable], Callable]:
    """Decorator adding a solver function to the registry under ``name``.

    See :class:`SolverInfo` for the arguments.  The keywords the solver takes
    (:attr:`SolverInfo.params`) are its function's keyword-only parameters but
    ``precision``, read from the signature here (the package's one
    ``inspect`` call): the list is written once, in the signature.  Variant
    and required keywords must be among them; ``tasks`` among :data:`TASKS`.
    ``backward_bound`` may be a positive number (an iterative solver's
    declared tolerance, the same for every fit) instead of a callable.
    The arguments are checked here, at the call, before any function is decorated.

    Raises
    ------
    TypeError
        ``name``, ``paper``, ``equations``, ``description`` or ``exact_note`` not a str; a hook
        (``system``, ``example``, ``exact_model``, ``ridge_path``) not callable; ``peak`` not a
        ``PeakMemory``; ``time`` not a ``TimeModel``; ``required``, ``variants`` or ``ladder`` not an iterable of str,
        ``Variant``, ``LadderKnob``; ``backward_bound`` neither callable nor a number;
        ``condition_estimate`` not a bool; the decorated object not a function taking ``precision``.
    ValueError
        ``name`` or ``paper`` empty, ``name`` already registered, ``tasks`` not among :data:`TASKS`,
        a bad ``direct``, a ``backward_bound`` number not positive and finite, a ``time`` model whose
        ``r`` the solver does not take, a solver function taking ``max_seconds`` (``fit``'s own).
    """
    if check_str("name", name) in _SOLVERS:
        raise ValueError(f"expected a name not yet registered, got name={name!r} "
                         "(already registered: unregister it first)")
    check_str("paper", paper)
    for arg, value in (("equations", equations), ("description", description), ("exact_note", exact_note)):
        check_str(arg, value, empty=True)
    given = tasks
    try:   # a str is one name, not a sequence of tasks (tuple("regression") is its letters)
        tasks = () if isinstance(tasks, str) else tuple(tasks)
    except TypeError:
        tasks = ()
    if not tasks or not set(tasks) <= set(TASKS):
        raise ValueError(f"expected a sequence of tasks among {TASKS}, got tasks={short_repr(given)}")
    required = _items("required", required, str, "keyword names")
    variants = _items("variants", variants, Variant, "Variant (la.variant(...))")
    ladder = _items("ladder", ladder, LadderKnob, "LadderKnob")
    if precisions is not None:
        precisions = tuple(get_precision(p).name for p in _items("precisions", precisions, object, "precisions"))
    for arg, hook in (("system", system), ("example", example), ("exact_model", exact_model),
                      ("ridge_path", ridge_path)):
        if hook is not None and not callable(hook):
            raise TypeError(f"expected a callable or None for {arg}, got {arg}={short_repr(hook)}")
    _check_peak(peak)
    if time is not None and not isinstance(time, TimeModel):
        raise TypeError(f"expected a TimeModel (lssvm_analysis.linalg.cost) or None for time, "
                        f"got time={short_repr(time)}")
    backward_bound = _backward_bound(backward_bound)
    if condition_estimate is None:
        condition_estimate = system is not None
    check_bool("condition_estimate", condition_estimate)
    if isinstance(direct, list):
        direct = tuple(direct)
    if direct is not None and (not isinstance(direct, tuple) or len(direct) != 2
                               or direct[0] not in DIRECT_FACTORIZATIONS
                               or not isinstance(direct[1], int) or direct[1] < 1):
        raise ValueError(f"expected direct=(one of {DIRECT_FACTORIZATIONS}, right-hand sides >= 1), "
                         f"got direct={direct!r}")

    def deco(func):
        if name in _SOLVERS:
            raise ValueError(f"solver {name!r} is already registered")
        if not callable(func):
            raise TypeError(f"expected a solver function to register, got {short_repr(func)}")
        params = _signature_keywords(func)
        for what, names in (("variant", {v.option for v in variants}), ("required", set(required)),
                            ("ladder", {k for knob in ladder
                                       for k in ((*knob.fixed,) if knob.dataset else (knob.param, *knob.fixed))})):
            bad = sorted(names - set(params))
            if bad:
                raise ValueError(f"expected {what} keywords among the keyword-only parameters {params} "
                                 f"of {getattr(func, '__name__', func)!r}, got {bad}")
        _check_takes_precision(func)
        if "max_seconds" in params:   # fit's own keyword: the solver would never receive it
            raise ValueError(f"expected a solver function without the keyword max_seconds (la.fit's time limit), "
                             f"got {getattr(func, '__name__', func)!r} with params {params}")
        if time is not None and time.r and time.r not in params and time.r_default:
            raise ValueError(f"expected the time model's r among the keyword-only parameters {params} "
                             f"of {getattr(func, '__name__', func)!r} (or r_default=0), got r={time.r!r}")
        _SOLVERS[name] = SolverInfo(name, func, tasks, paper, equations, params, required, variants,
                                    precisions, system, example, backward_bound,
                                    description or _first_line(func), exact_model, peak, exact_note,
                                    ladder, direct, ridge_path, condition_estimate, time)
        return func

    return deco


def _items(arg: str, value, kind, what: str) -> tuple:
    """``tuple(value)``, every item a ``kind``; TypeError naming ``arg`` otherwise (``required=5``
    was "'int' object is not iterable"; a str is one name, not its letters)."""
    if isinstance(value, (str, bytes)):
        raise TypeError(f"expected an iterable of {what} for {arg}, got {arg}={short_repr(value)} "
                        f"(a str: write ({value!r},))")
    try:
        items = tuple(value)
    except TypeError:
        raise TypeError(f"expected an iterable of {what} for {arg}, got {arg}={short_repr(value)}") from None
    bad = [v for v in items if not isinstance(v, kind)]
    if bad:
        raise TypeError(f"expected an iterable of {what} for {arg}, got an item {short_repr(bad[0])} "
                        f"in {arg}={short_repr(value)}")
    return items


def _check_peak(peak) -> None:
    """TypeError naming ``peak`` unless it is None or a :class:`~lssvm_analysis.linalg.memory.PeakMemory`."""
    if peak is not None and not isinstance(peak, PeakMemory):
        raise TypeError(f"expected a PeakMemory (lssvm_analysis.linalg.memory) or None for peak, "
                        f"got peak={short_repr(peak)}")


def _backward_bound(value) -> Callable:
    """The declared backward bound as ``bound(fit, n)``: a callable as given, a positive finite
    number as a constant (an iterative solver's tolerance), None as the default 30 n u."""
    if value is None:
        return _default_backward_bound
    if callable(value):
        return value
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"expected a callable bound(fit, n) or a positive number for backward_bound, "
                        f"got backward_bound={short_repr(value)}")
    if not (math.isfinite(value) and value > 0):
        raise ValueError(f"expected a positive finite backward_bound, got backward_bound={value!r}")
    eta = float(value)
    return lambda fit, n: eta


_LOADED_PLUGINS: dict[str, str] = {}
#: Whether the installed plugins were loaded: at the registry's first use (:func:`solvers`,
#: :func:`get_solver`, :func:`fit`), not at ``import lssvm_analysis``, so that a pytest run that
#: never uses this package (its pytest11 plugin is imported in every run) imports no plugin either.
_PLUGINS_LOADED = [False]


def _load_plugins_once() -> None:
    """:func:`load_plugins` on the registry's first use (set first: a plugin may use the registry)."""
    if not _PLUGINS_LOADED[0]:
        _PLUGINS_LOADED[0] = True
        load_plugins()


def load_plugins(group: str = PLUGIN_GROUP) -> dict[str, str]:
    """Load the solvers of every installed package that declares an entry point of ``group``.

    An entry point names a module (importing it registers its solvers, as the
    package's own family modules do) or a callable (called once, without
    arguments, to register them).  The registry's first use (``solvers()``,
    ``get_solver()``, ``fit()``) calls this, so an installed plugin's solvers are in ``solvers()``, the estimators, sweeps,
    ``compare``, the report's generic sections and the asv suite with no edit
    to this package.  A plugin that fails to load is skipped with an
    :class:`~lssvm_analysis.core.exceptions.LSSVMWarning` naming it and the
    error (a broken third-party package must not break the import).

    Returns
    -------
    dict
        Entry-point name -> its value (``module`` or ``module:attr``), of every plugin loaded so far.

    Raises
    ------
    TypeError, ValueError
        ``group`` not a non-empty str (any other name is a group, with or without entry points).
    """
    check_str("group", group)
    for ep in importlib.metadata.entry_points(group=group):
        if ep.name in _LOADED_PLUGINS:
            continue
        try:
            obj = ep.load()
            if callable(obj) and not isinstance(obj, types.ModuleType):
                obj()
        except Exception as exc:  # noqa: BLE001 - see the docstring
            warnings.warn(f"solver plugin {ep.name!r} ({ep.value}) was not loaded: "
                          f"{type(exc).__name__}: {exc}", LSSVMWarning, stacklevel=2)
            continue
        _LOADED_PLUGINS[ep.name] = ep.value
    return dict(_LOADED_PLUGINS)


def _check_takes_precision(func) -> None:
    """TypeError unless the solver function takes the keyword ``precision`` (``fit`` passes it)."""
    sig = inspect.signature(func).parameters
    if "precision" not in sig and not any(v.kind is v.VAR_KEYWORD for v in sig.values()):
        raise TypeError(f"expected a solver function taking the keyword precision, got "
                        f"{getattr(func, '__name__', func)!r}{inspect.signature(func)}")


def _signature_keywords(func) -> tuple[str, ...]:
    """The keyword-only parameters of ``func`` but ``precision``, in signature order."""
    return tuple(k for k, v in inspect.signature(func).parameters.items()
                 if v.kind is v.KEYWORD_ONLY and k != "precision")


def unregister(name: str) -> SolverInfo:
    """Remove ``name`` from the registry (tests that register throwaway solvers clean up)."""
    return _SOLVERS.pop(get_solver(name).name)


def _first_line(func) -> str:
    doc = (getattr(func, "__doc__", None) or "").strip()
    return doc.splitlines()[0] if doc else ""


def solvers(task: str | None = None, *, paper: str | None = None) -> list[str]:
    """Registered solver names, optionally only those for ``task`` and/or ``paper``.

    Raises
    ------
    ValueError
        ``task`` or ``paper`` that no registered solver has (a typo would give ``[]``).
    """
    _load_plugins_once()
    for name, value, known in (("task", task, {t for s in _SOLVERS.values() for t in s.tasks}),
                               ("paper", paper, {s.paper for s in _SOLVERS.values()})):
        if value is not None and value not in known:
            raise ValueError(f"expected {name} in {sorted(known)}, got {name}={value!r}")
    return [n for n, s in _SOLVERS.items()
            if (task is None or task in s.tasks) and (paper is None or s.paper == paper)]


def fit_params(fit, params: Mapping[str, Any]) -> dict:
    """``fit.params`` overridden by those of ``params`` that the fit's solver takes.

    What a ``system`` / ``exact_model`` hook rebuilds a fit from; other
    keywords (the conformance battery passes every hook the same ones) are
    ignored.
    """
    taken = get_solver(fit.solver).params
    return {**dict(fit.params), **{k: v for k, v in params.items() if k in taken}}


def get_solver(name: str) -> SolverInfo:
    """The registry entry of ``name``; UnknownSolverError names the value it got."""
    _load_plugins_once()
    try:
        return _SOLVERS[name]
    except (KeyError, TypeError):
        raise UnknownSolverError(f"expected a solver in {solvers()}, got solver={name!r}") from None
