"""The one registry of solvers: tests, benchmarks, sweeps and the CLI iterate it."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ..exceptions import UnknownSolverError

__all__ = ["SolverInfo", "register", "solvers", "get_solver", "fit"]


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
        Seed paper key ("suykens-ch3", "abe", ...).
    equations : str
        The equations of the paper the solver implements.
    params : tuple of str
        Hyper-parameters it accepts (unified names: C, sigma2, eta, ...).
    system : callable or None
        ``system(X, y, fit, **params) -> (A, rhs, unpack)``: the linear system
        the solver solved, formed in ``fit.precision`` exactly as the solver
        formed it (same support set), so that the conformance battery can
        compare the fit with ``reference_solve(A, rhs)``; ``unpack(x)`` maps a
        solution vector to ``{"coef": ..., "bias": ...}``.  None for solvers
        that solve no single linear system (pruning, multiclass wrappers).
    """

    name: str
    func: Callable
    tasks: tuple
    paper: str
    equations: str
    params: tuple
    system: Callable | None = None


_SOLVERS: dict[str, SolverInfo] = {}


def register(name: str, *, tasks, paper: str, equations: str, params=(), system=None):
    """Decorator adding a solver function to the registry under ``name``."""

    def deco(func):
        if name in _SOLVERS:
            raise ValueError(f"solver {name!r} is already registered")
        _SOLVERS[name] = SolverInfo(name, func, tuple(tasks), paper, equations, tuple(params), system)
        return func

    return deco


def solvers(task: str | None = None) -> list[str]:
    """Registered solver names, optionally only those for ``task``."""
    return [n for n, s in _SOLVERS.items() if task is None or task in s.tasks]


def get_solver(name: str) -> SolverInfo:
    try:
        return _SOLVERS[name]
    except (KeyError, TypeError):
        raise UnknownSolverError(f"expected a solver in {solvers()}, got solver={name!r}") from None


def fit(solver: str, X, y, *, precision="float64", **params):
    """Fit the registered ``solver`` on (X, y) in ``precision``; see its docstring."""
    return get_solver(solver).func(X, y, precision=precision, **params)
