"""What a solver declares beside its function: its variants, its ladder knobs, a problem it accepts.

:class:`Variant` is one value of a keyword that offers a paper's formula as printed beside a
stable reformulation; :class:`LadderKnob` a keyword of the paper (or of the data) that drives
the condition of what the solver forms, for the report's kappa ladder; :class:`Problem` a small
problem the solver accepts.  :func:`~._registry.register` takes them and validates them.
"""
from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field
from typing import Any, Mapping

import numpy as np

from ..core.validation import check_bool, check_str, short_repr

__all__ = ["Variant", "LadderKnob", "SUPPORT_FRACTIONS", "Problem", "variant"]


@dataclass(frozen=True)
class Variant:
    """One named value of a solver keyword that selects a formulation.

    Attributes
    ----------
    option : str
        The keyword, e.g. ``"formation"``.
    value : str
        Its value, e.g. ``"as-described"``.
    description : str
        One line: what the formulation does.
    literal : bool
        True for the paper's formula as printed (the fragile form, kept to be measured).

    Raises
    ------
    TypeError
        ``option``, ``value`` or ``description`` not a str, ``literal`` not a bool.
    ValueError
        ``option`` not a keyword name, an empty ``value``.
    """

    option: str
    value: str
    description: str
    literal: bool = False

    def __post_init__(self):
        if not check_str("option", self.option).isidentifier():
            raise ValueError(f"expected a keyword name for option, got option={self.option!r}")
        check_str("value", self.value)
        check_str("description", self.description, empty=True)
        object.__setattr__(self, "literal", check_bool("literal", self.literal))


@dataclass(frozen=True)
class LadderKnob:
    """A keyword of the paper that drives the condition of what the solver forms (the kappa ladder).

    The report's kappa ladder (:mod:`lssvm_analysis.report.sections_digits`)
    moves C for every solver; where C alone leaves the formed system well
    conditioned (a support-set method whose support is small, a pivoted
    Cholesky that stops at a low rank), the solver declares the knob that
    does drive it, and the ladder adds one rung per value, in every variant
    and precision, at the top C of its C ladder.  A data knob
    (``dataset=True``, e.g. ``near_duplicates``) is a keyword of the ladder's
    data sets instead (``datasets.load``): it changes the points, not the
    solver, and its rungs run at the bottom C of the ladder, where C drives
    least, so that what they show is the data's doing.  The knob may be
    ``C`` itself: its rungs are then values of C past the ladder's top, for
    a formulation whose problem kappa grows as sqrt(C) (a ridge least-squares
    problem, Abe's empirical feature space), not as C.

    Attributes
    ----------
    param : str
        The keyword (one of the solver's ``params``, or of the data sets'
        loaders for a data knob), e.g. ``"n_support"``.
    values : tuple of float
        The rungs, from well to ill conditioned.
    per_point : bool
        The values are fractions of the number of training points n: the
        rung is ceil(value * n), clipped to 1..n (a support size must fit
        every profile's n).
    fixed : mapping
        Other keywords held fixed on these rungs (e.g. rr-lssvr's ``tol=0``,
        so the greedy selection reaches the support size the rung asks for).
    note : str
        One sentence: what the knob does to the formed system and why C
        alone does not (the report prints it).
    dataset : bool
        A data knob: ``param`` is a keyword of the ladder's data sets, not
        of the solver (its ``fixed`` keywords are still the solver's).
    chosen : str
        The fit record's column that holds what the fit took where it may
        take less than ``param`` asks (a count: ``diag_rank`` of a pivoted
        Cholesky that stops at its rank, ``diag_k_star`` of MRSR); empty
        when the fit always takes what it is asked.  A grid row that the
        ladder cannot drive to the widest row's kappa states it from there.

    Raises
    ------
    TypeError
        ``param``, ``note`` or ``chosen`` not a str, ``values`` not a
        sequence of real numbers, ``per_point`` or ``dataset`` not a bool,
        ``fixed`` not a mapping with str keys.
    ValueError
        ``param`` or a non-empty ``chosen`` not a keyword name (whether the
        solver or the data sets take ``param`` is checked by ``register``),
        no values, a value that is not finite, (``per_point``) outside
        (0, 1], or (``param = "C"``) not positive, per point or a data knob.
    """

    param: str
    values: tuple
    per_point: bool = False
    fixed: Mapping[str, Any] = field(default_factory=dict)
    note: str = ""
    dataset: bool = False
    chosen: str = ""

    def __post_init__(self):
        if not check_str("param", self.param).isidentifier():
            raise ValueError(f"expected a keyword name for param, got param={self.param!r}")
        object.__setattr__(self, "values", _knob_values(self.values, check_bool("per_point", self.per_point)))
        object.__setattr__(self, "per_point", bool(self.per_point))
        if not isinstance(self.fixed, Mapping) or not all(isinstance(k, str) for k in self.fixed):
            raise TypeError(f"expected a mapping of keyword names to values for fixed, "
                            f"got fixed={short_repr(self.fixed)}")
        check_str("note", self.note, empty=True)
        object.__setattr__(self, "dataset", check_bool("dataset", self.dataset))
        if check_str("chosen", self.chosen, empty=True) and not self.chosen.isidentifier():
            raise ValueError(f"expected a column name or '' for chosen, got chosen={self.chosen!r}")
        if self.param == "C" and (self.dataset or self.per_point or not all(v > 0 for v in self.values)):
            raise ValueError(f"expected positive values of C, not per point nor a data knob (param='C'), got "
                             f"values={short_repr(self.values)}, per_point={self.per_point}, dataset={self.dataset}")

    def rungs(self, n: int) -> list:
        """The knob's values for a training set of ``n`` points (distinct, in ladder order)."""
        if not self.per_point:
            return list(dict.fromkeys(self.values))
        return list(dict.fromkeys(min(n, max(1, math.ceil(v * n - 1e-9))) for v in self.values))


def _knob_values(values, per_point: bool) -> tuple:
    """A LadderKnob's ``values`` as a tuple of finite real numbers, in (0, 1] when ``per_point``."""
    if isinstance(values, (str, bytes, Mapping)) or not isinstance(values, (tuple, list, np.ndarray)) \
            or not all(isinstance(v, numbers.Real) and not isinstance(v, (bool, np.bool_)) for v in values):
        raise TypeError(f"expected a sequence of real numbers for values, got values={short_repr(values)}")
    values = tuple(values)
    if not values or not all(math.isfinite(v) for v in values):
        raise ValueError(f"expected one or more finite values, got values={short_repr(values)}")
    if per_point and not all(0 < v <= 1 for v in values):
        raise ValueError(f"expected fractions of n in (0, 1] for values (per_point=True), "
                         f"got values={short_repr(values)}")
    return values


#: Support-size rungs of the kappa ladder, as fractions of n (support-set families: ``n_support``).
#: Not 1.0: with every point in the support at C = 1e16 the least-squares problem of Zhao & Sun's
#: (7) has kappa ~ 1e20 (sinc, n = 30, sigma2 = 10), beyond what its exact model certifies.
SUPPORT_FRACTIONS = (0.25, 0.5, 0.8)


def variant(option: str, value: str, description: str, *, literal: bool = False) -> Variant:
    """Shorthand for :class:`Variant` in ``register(..., variants=[...])``.

    Raises
    ------
    TypeError
        ``option``, ``value`` or ``description`` not a str, ``literal`` not a bool.
    ValueError
        ``option`` not a keyword name, an empty ``value``.
    """
    return Variant(option, value, description, literal)   # Variant checks each field, naming it


@dataclass(frozen=True)
class Problem:
    """A small problem a solver accepts: ``fit(name, X, y, **params)``."""

    X: np.ndarray
    y: np.ndarray
    task: str
    params: Mapping[str, Any]
