"""Multiclass LS-SVM by output coding (Suykens §3.2): MOC, 1vsA, 1vs1, ECOC, Hamming decoding.

The multiclass KKT system (3.12) is block diagonal: ``Y_M``, ``Omega_M`` and
``D_M`` are ``blockdiag`` over the n_y outputs, so it splits into n_y
independent binary LS-SVM systems (3.5), one per column of the code.  Each
class C_i gets a codeword in {-1, 0, +1}^{n_y}; binary problem j is trained
on the points of the classes whose j-th code entry is +-1, with that entry as
label (0 = class not used, 1vs1 only).  A new point gets the outputs
``sign(f_j(x))`` (3.14) and the class whose codeword is nearest in Hamming
distance, code entries 0 ignored.

Codes (n_C classes)
-------------------
``moc``   minimum output coding: n_y = ceil(log2 n_C), codeword i = the bits
          of i as -1/+1.
``1vsa``  one-versus-all: n_y = n_C, +1 for the class, -1 for all others.
``1vs1``  one-versus-one: n_y = n_C (n_C - 1) / 2, classifier (i, j), i < j,
          sees +1 for C_i, -1 for C_j, 0 elsewhere.  Hamming decoding with the
          zeros ignored counts, for class i, the pairwise votes against it, so
          the nearest codeword is the class with most votes (majority vote).
          (Suykens' 3-class example lists the three rows of this code per
          classifier: [-1; +1; 0], [-1; 0; +1], [0; -1; +1], up to sign.)
``ecoc``  error-correcting: the exhaustive code (Dietterich & Bakiri 1995)
          for n_C <= 7 - all 2^(n_C - 1) - 1 distinct non-constant columns,
          rows at Hamming distance 2^(n_C - 2) (>= 3 for n_C >= 4; for
          n_C = 3 no code without repeated columns does better than 2); for
          n_C > 7 a dense random code of ceil(10 log2 n_C) columns drawn with
          ``numpy.random.default_rng(random_state)``, the draw with the largest
          minimum row distance among 100 (Allwein, Schapire & Singer 2000).

Ties in the Hamming distance go to the class that comes first in
``classes_`` (sorted labels).  This wrapper is not in the solver registry (it
solves n_y systems, not one); use :func:`fit_multiclass`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike
from ..arith.base import Precision

from ..core.validation import as_matrix, as_rng, as_vector, check_finite, check_int
from ._fit import fit as registry_fit
from ._registry import get_solver

__all__ = ["MulticlassFit", "fit_multiclass", "make_code", "moc_assignments", "hamming_decode", "hamming_distances",
           "CODES"]

CODES = ("moc", "1vsa", "1vs1", "ecoc")
_EXHAUSTIVE_MAX = 7


def make_code(code: str, n_classes: int, *, random_state=0) -> np.ndarray:
    """The codebook, shape (n_classes, n_y), entries in {-1, 0, +1} (int8).

    Raises
    ------
    ValueError
        Unknown code or fewer than two classes.
    """
    if code not in CODES:
        raise ValueError(f"expected code in {CODES}, got code={code!r}")
    n = check_int("n_classes", n_classes, minimum=2)
    if code == "moc":
        bits = max(1, math.ceil(math.log2(n)))
        M = (np.arange(n)[:, None] >> np.arange(bits)[None, :]) & 1
        return (2 * M - 1).astype(np.int8)
    if code == "1vsa":
        return (2 * np.eye(n) - 1).astype(np.int8)
    if code == "1vs1":
        pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
        M = np.zeros((n, len(pairs)), dtype=np.int8)
        for col, (i, j) in enumerate(pairs):
            M[i, col], M[j, col] = 1, -1
        return M
    if n <= _EXHAUSTIVE_MAX:
        return _exhaustive_code(n)
    return _random_code(n, random_state)


def moc_assignments(n_classes: int, *, max_classes: int = 4) -> list[np.ndarray]:
    """Every distinct minimum output code of ``n_classes``: which class gets which codeword.

    A MOC gives the classes ceil(log2 n) bits, and which class has which codeword decides the binary
    problems (for three classes, which one is alone against the other two in each bit).  Two
    codebooks are the same when one is the other with its bits reordered or negated (the same binary
    problems, up to the sign of each).  Returned in order of first appearance over the class ->
    codeword maps, so the first is :func:`make_code`'s ``"moc"`` (class k -> the bits of k).

    Raises
    ------
    ValueError
        ``n_classes`` below 2 or above ``max_classes`` (their number grows as (2^b)! / (2^b - n)!).
    """
    import itertools
    n = check_int("n_classes", n_classes, minimum=2)
    if n > max_classes:
        raise ValueError(f"expected n_classes <= max_classes={max_classes}, got n_classes={n}")
    bits = max(1, math.ceil(math.log2(n)))
    words = ((np.arange(2 ** bits)[:, None] >> np.arange(bits)[None, :]) & 1) * 2 - 1
    out, seen = [], set()
    for choice in itertools.permutations(range(2 ** bits), n):
        M = words[list(choice)].astype(np.int8)
        if np.any(np.abs(M.sum(axis=0)) == n):  # a constant bit separates nothing
            continue
        canon = min(tuple(sorted(tuple(int(v) for v in sgn * M[:, j]) for j, sgn in zip(perm, signs)))
                    for perm in itertools.permutations(range(bits))
                    for signs in itertools.product((1, -1), repeat=bits))
        if canon not in seen:
            seen.add(canon)
            out.append(M)
    return out


def _exhaustive_code(n):
    """All 2^(n-1) - 1 columns with class 0 at +1 and not all +1 (one of each +-pair)."""
    cols = []
    for m in range(2 ** (n - 1) - 1):  # bits of m for classes 1..n-1; all-ones excluded
        cols.append([1] + [1 if (m >> (i - 1)) & 1 else -1 for i in range(1, n)])
    return np.array(cols, dtype=np.int8).T


def _random_code(n, random_state, draws=100):
    rng = as_rng("random_state", random_state)
    n_y = math.ceil(10 * math.log2(n))
    best, best_d = None, -1
    for _ in range(draws):
        M = rng.choice(np.array([-1, 1], dtype=np.int8), size=(n, n_y))
        if np.any(np.abs(M.sum(axis=0)) == n):  # a constant column trains nothing
            continue
        d = min(int(np.sum(M[i] != M[j])) for i in range(n) for j in range(i + 1, n))
        if d > best_d:
            best, best_d = M, d
    return best


def hamming_decode(outputs, codebook) -> np.ndarray:
    """Index of the nearest codeword for each row of ``outputs`` (+-1), zeros ignored.

    Parameters
    ----------
    outputs : (m, n_y) array of {-1, +1}
    codebook : (n_classes, n_y) array of {-1, 0, +1}

    Returns
    -------
    (m,) int array; ties go to the lowest class index.
    """
    return np.argmin(hamming_distances(outputs, codebook), axis=1)


def hamming_distances(outputs, codebook) -> np.ndarray:
    """(m, n_classes) Hamming distances of the outputs (+-1) to each codeword, zeros ignored."""
    outputs = np.asarray(outputs)
    codebook = np.asarray(codebook)
    return ((codebook[None, :, :] != 0) & (codebook[None, :, :] != outputs[:, None, :])).sum(axis=2)


@dataclass(frozen=True)
class MulticlassFit:
    """A multiclass LS-SVM: the codebook and one binary Fit per column.

    Attributes
    ----------
    classes_ : ndarray, shape (n_classes,)
        Sorted class labels; row i of ``codebook`` is the codeword of ``classes_[i]``.
    codebook : ndarray of int8, shape (n_classes, n_y)
    code : str
    solver : str
        Registry name of the binary solver.
    fits : tuple of Fit, length n_y
        Binary fit j; its ``support_`` indexes ``rows[j]``.
    rows : tuple of ndarray
        ``rows[j]``: the training indices binary problem j was fitted on.
    params : dict
        The keyword arguments passed to every binary fit, with the precision.
    """

    classes_: np.ndarray
    codebook: np.ndarray
    code: str
    solver: str
    fits: tuple
    rows: tuple = ()
    params: Any = None

    @property
    def status(self) -> str:
        """"ok" when every binary fit succeeded, else the first other status."""
        return next((f.status for f in self.fits if not f.ok), "ok")

    def decision_function(self, X) -> np.ndarray:
        """The n_y binary decision values f_j(x) (3.14), float64, shape (m, n_y)."""
        return np.column_stack([f.decision_function(X) for f in self.fits])

    def class_scores(self, X) -> np.ndarray:
        """Minus the Hamming distance of sign(f(x)) to each codeword, shape (m, n_classes).

        ``predict`` is the argmax of these scores (ties to the first class),
        which is what scikit-learn expects of a multiclass decision function.
        """
        outputs = np.where(self.decision_function(X) >= 0, 1, -1)
        return -hamming_distances(outputs, self.codebook).astype(np.float64)

    def predict(self, X) -> np.ndarray:
        """Class labels by Hamming decoding of sign(f_j(x)) (f = 0 counts as +1)."""
        return self.classes_[np.argmax(self.class_scores(X), axis=1)]


def _labels(y) -> np.ndarray:
    """Class labels: a non-empty 1-D array of numbers (finite) or strings."""
    y = np.asarray(y)
    if y.ndim != 1 or y.size == 0:
        raise ValueError(f"expected a non-empty 1-D array for y, got y.shape={y.shape}")
    if y.dtype.kind in "fc":
        check_finite(y, "y")
    elif y.dtype.kind not in "iubUSO":
        raise TypeError(f"expected class labels (numbers or strings) in y, got dtype={y.dtype}")
    return y


def fit_multiclass(X: ArrayLike, y: ArrayLike, *, solver: str = "lssvm-schur", code: str = "1vs1",
                   precision: str | Precision = "float64", random_state: int | np.random.Generator = 0,
                   sample_weight: ArrayLike | None = None, **params: Any) -> MulticlassFit:
    """Multiclass LS-SVM: decompose (3.12) into binary problems, one per code column.

    Parameters
    ----------
    X : (N, n) array_like
    y : (N,) array_like
        Class labels (any sortable labels, at least two classes).
    solver : str
        Registry name of a binary classifier ("lssvm-schur", "lssvm-kkt",
        "lssvm-cg", "krr", "lssvm-fisher", "lssvm-pruned", ...).
    code : {"moc", "1vsa", "1vs1", "ecoc"}
    precision : str or Precision
    random_state : int
        Seed of the random ECOC code (n_C > 7 only; the code is deterministic).
    sample_weight : (N,) array_like, optional
        Per-point weights, for a solver that takes them (its registry entry
        lists ``sample_weight``); each binary problem gets those of its rows.
    **params
        Passed to every binary fit (C = Suykens' gamma, sigma2, kernel, ...).
        Suykens tunes (gamma_i, sigma_i) per output; fit the binary problems
        yourself for that.

    Returns
    -------
    MulticlassFit

    Raises
    ------
    ValueError, TypeError
        Bad X / y, one class only, unknown code, unknown solver
        (UnknownSolverError), a solver that does no classification, or bad
        params (raised by the binary solver).

    Notes
    -----
    Cost: n_y binary fits; 1vs1 fits on two classes each (about 2N/n_C
    points), the other codes on all N points.
    """
    info = get_solver(solver)
    if "classification" not in info.tasks:
        raise ValueError(f"expected a classification solver, got solver={solver!r} "
                         f"(tasks {info.tasks})")
    if code not in CODES:
        raise ValueError(f"expected code in {CODES}, got code={code!r}")
    as_rng("random_state", random_state)  # checked whatever the code (only "random" draws from it)
    X = as_matrix(X, "X", allow_object=False)
    check_finite(X, "X")
    y = _labels(y)
    if X.shape[0] != y.shape[0]:
        raise ValueError(
            f"expected X and y with the same number of samples, got X.shape={X.shape}, y.shape={y.shape}")
    if sample_weight is not None:   # a str was an IndexError at the first binary problem
        sample_weight = as_vector(sample_weight, "sample_weight", allow_object=False)
        check_finite(sample_weight, "sample_weight")
        if sample_weight.shape[0] != X.shape[0]:
            raise ValueError(f"expected sample_weight of length X.shape[0]={X.shape[0]}, got "
                             f"sample_weight.shape={sample_weight.shape}")
    classes, y_idx = np.unique(y, return_inverse=True)
    if len(classes) < 2:
        raise ValueError(f"expected at least two classes in y, got one class: {classes.tolist()}")
    M = make_code(code, len(classes), random_state=random_state)
    fits, subsets = [], []
    for j in range(M.shape[1]):
        labels = M[y_idx, j]
        rows = np.flatnonzero(labels != 0)
        subsets.append(rows)
        extra = info.task_keywords("classification")
        if sample_weight is not None:
            extra["sample_weight"] = sample_weight[rows]
        fits.append(registry_fit(solver, X[rows], labels[rows].astype(np.float64), precision=precision,
                                 **extra, **params))
    return MulticlassFit(classes_=classes, codebook=M, code=code, solver=solver, fits=tuple(fits),
                         rows=tuple(subsets),
                         params=dict(params, precision=str(getattr(precision, "name", precision))))
