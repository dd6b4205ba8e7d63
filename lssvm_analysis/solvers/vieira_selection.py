"""OP-LSSVM's column selection (Vieira et al., ESANN 2016, §4): the system D, the MRSR ranking
of its columns, k* by PRESS or by training accuracy, and the least-squares solve on the kept
columns that IP-LSSVM shares.

:func:`op_selection` runs the ranking and the choice of k* once per data, kernel and options
(:func:`shared_selection` lets the fits of one sweep share it); :func:`solve_kept` solves
min ||D_* z - l|| on the kept columns by LAPACK's QR, a column QR in the precision, or the
normal equations as printed.
"""
from __future__ import annotations

import contextlib
import contextvars
import warnings

import numpy as np

from ..core.validation import check_int
from ..core.exceptions import CholeskyBreakdownError, FallbackWarning, QRBreakdownError
from ..core.records import CholeskyBreakdown, QRBreakdown
from ..core.memo import array_key, json_key, scoped
from ..linalg.mrsr import column_qr, mrsr
from ..linalg.qr import qr_r
from .peaks import OP_PEAK
from ..linalg.press import press_curve
from .kkt import bordered_matrix, formed_kappa, lssvm_matrix

__all__ = ["NORMALIZATIONS", "READINGS", "K_RULES", "TRAINING_ACCURACY_STEP", "lssvm_system", "solve_kept",
           "shared_selection", "op_options", "op_selection"]

NORMALIZATIONS = ("unit-norm", "standardize", "none")
#: How the columns are ranked: "paper" (the columns of D given the kept bias column, projected out),
#: "authors-code" (the authors' MATLAB, github Clifte/outros, Pesquisas/OP-LSSVM/Codigos/oplssvm/
#: OPLSSVM.m: MRSR on the L x L block Omega + I/gamma against the labels, no bias row or column, no
#: projection; the bias row and column are added to the ranked columns afterwards).
READINGS = ("paper", "authors-code")
#: How k* is chosen among the ranked columns: "press" (the paper: argmin of the PRESS LOO MSE),
#: "training-accuracy" (the authors' MATLAB, OPLSSVM.m ``train``: the first k of largest training
#: accuracy over k = 1, 3, 5, ... <= max_sv), "fixed" (every ranked column, k* = k_max: a study at a
#: given k).
K_RULES = ("press", "training-accuracy", "fixed")
#: The authors' loop ``for i = 1:step:length(indexes_o)`` with ``step = 2`` (OPLSSVM.m).
TRAINING_ACCURACY_STEP = 2


def lssvm_system(X, y, k, p, C, task, timer, *, peak=OP_PEAK):
    """D (L+1, L+1) and l (L+1,) of eq. (4) in the precision p: Suykens' system of ``task``
    (:func:`kkt.lssvm_matrix`, same arguments; ``peak`` is checked before the kernel) bordered
    by :func:`kkt.bordered_matrix`."""
    H, a, d = lssvm_matrix(X, y, k, p, C, task, timer, peak=peak)
    with timer("formation"):
        return bordered_matrix(H, a, d, p)


def solve_kept(D, l, cols, p, solve, qr=None):
    """z over the columns ``cols`` of D with all rows kept (``solve``: "lstsq" or "normal-equations").

    ``qr`` (a ColumnQR of D[:, cols], or of a longer prefix) is reused when given.
    Raises CholeskyBreakdownError (normal equations; a Gram matrix D_k^T D_k that
    overflows the precision is a breakdown at its first non-finite diagonal entry,
    pivot inf) or QRBreakdownError (a numerically dependent kept column), each with
    its record.
    """
    k = len(cols)
    if solve == "normal-equations":
        Dk = p.keep_columns(D, cols)
        with np.errstate(over="ignore", invalid="ignore"):
            G = p.matmul(Dk.T, Dk)
        finite = np.array([abs(g) < np.inf for g in np.diagonal(G)])  # in the precision (mp, longdouble)
        if not finite.all():  # the squares overflow: no factor to compute
            j = int(np.argmin(finite))
            raise CholeskyBreakdownError(CholeskyBreakdown(j, float("inf"), k, p.name))
        Lc = p.cholesky(G, check=False)
        return p.cho_solve(Lc, p.matmul(Dk.T, l))
    if qr is None and p.hardware:
        # LAPACK's Householder QR (geqrf) for the IEEE types: the same algorithm class as
        # CGS2 (backward stable), at BLAS-3 speed
        R, Qtl = qr_r(D[:, cols], p, l)
        r = np.abs(np.diag(R))
        bad = ~(r > D.shape[0] * p.unit_roundoff * np.abs(R).max())
        if bad.any():
            j = int(np.argmax(bad))
            raise QRBreakdownError(QRBreakdown(j, float(r[j]), k, p.name))
        return p.solve_triangular(R, Qtl, lower=False)
    if qr is None or qr.k < k:
        qr = column_qr(D.shape[0], k, p)
        for j, c in enumerate(cols):
            if not qr.append_column(D, c):
                raise QRBreakdownError(QRBreakdown(j, qr.last_norm, k, p.name))
    return qr.solve(l, k)


def _cond_path(D, cols, p):
    """cond_2(D[:, cols[:k]]) for every k, from a float64 QR of the ranked columns (free-ish)."""
    D64 = p.to_float64(D[:, cols])
    R = np.linalg.qr(D64, mode="r")
    out = np.empty(len(cols))
    for k in range(1, len(cols) + 1):
        out[k - 1] = formed_kappa(R[:k, :k])
    return out


def _ranking_inputs(D, l, p, rank_bias, normalize, reading="paper", y=None):
    """The matrix and target MRSR ranks, and the map from its columns to D's.

    Forced bias (default): column 0 of D is always in the model, so the other
    columns are ranked *given* it: d_0 is projected out of them and of l
    (CGS2), exactly as LARS with an intercept centres X and y (centring is
    the projection out of the ones column).  ``"standardize"`` is OP-ELM's
    literal preprocessing instead: centre every column and l by their means
    over the rows (the ones column as intercept), then scale.  ``reading=
    "authors-code"``: the block Omega + I/C (rows and columns 1..L of D)
    against the labels / targets ``y``, nothing projected (their MATLAB).
    """
    if reading == "authors-code":
        return D[1:, 1:], p.asarray(y), np.arange(1, D.shape[1])
    if rank_bias:
        Xr, lr, colmap = D, l, np.arange(D.shape[1])
    else:
        Xr, lr, colmap = D[:, 1:], l, np.arange(1, D.shape[1])
    if normalize == "standardize":
        Xr = Xr - Xr.mean(axis=0)
        lr = lr - lr.mean()
    elif not rank_bias:
        d0 = D[:, 0]
        q0 = d0 / p.sqrt(np.array([d0 @ d0], dtype=d0.dtype))[0]
        Xr = p.project_out(Xr, q0, passes=2)
        for _ in range(2):
            lr = lr - q0 * (q0 @ lr)
    return Xr, lr, colmap


def op_options(k_max, n, rank_bias, normalize, conditioning, reading="paper", k_rule="press",
                task="classification"):
    if k_rule not in K_RULES:
        raise ValueError(f"expected k_rule in {K_RULES}, got k_rule={k_rule!r}")
    if k_rule == "training-accuracy" and task != "classification":
        raise ValueError(f"expected task='classification' with k_rule='training-accuracy' (an accuracy "
                         f"needs labels), got task={task!r}")
    if not isinstance(rank_bias, (bool, np.bool_)):
        raise TypeError(f"expected True or False for rank_bias, got rank_bias={rank_bias!r}")
    if reading not in READINGS:
        raise ValueError(f"expected reading in {READINGS}, got reading={reading!r}")
    if reading == "authors-code" and rank_bias:
        raise ValueError("expected rank_bias=False with reading='authors-code' (their code adds the bias "
                         "after the ranking), got rank_bias=True")
    if not isinstance(conditioning, (bool, np.bool_)):
        raise TypeError(f"expected True or False for conditioning, got conditioning={conditioning!r}")
    if normalize not in NORMALIZATIONS:
        raise ValueError(f"expected normalize in {NORMALIZATIONS}, got normalize={normalize!r}")
    k_max = min(100, n) if k_max is None else check_int("k_max", k_max, minimum=1)
    return min(k_max, n + int(rank_bias))


def _training_accuracy(D, l, cols, first, p, solve, qr, C, y):
    """Training accuracy of the fit on cols[:k + first - 1] for k = 1, 1 + step, ... (the authors' loop).

    The decision values at the training points come from the rows of D: row i
    of D_k z is a_i (b + sum_j y_j alpha_j K_ij) + alpha_i / C (i kept), with
    a_i = y_i = +-1, so f_i = a_i ((D_k z)_i - alpha_i / C [i kept]) (float64:
    only signs are used).  The loop stops at the first k whose solve breaks
    down (the authors stop when rcond of D_k^T D_k falls below 1e-17, a
    float64 threshold; a breakdown is this precision's own version of it).
    Returns (ks, accuracies); ``accuracies`` is empty when k = 1 already fails.
    """
    a = p.to_float64(D[1:, 0])
    ks, acc = [], []
    for k in range(1, len(cols) - first + 2, TRAINING_ACCURACY_STEP):
        kept = cols[:k + first - 1]
        try:
            z = p.to_float64(solve_kept(D, l, kept, p, solve, qr))
        except (CholeskyBreakdownError, QRBreakdownError):
            break
        Dz = p.to_float64(D[1:, kept]) @ z
        patterns = np.asarray(kept) - 1
        on = patterns >= 0
        Dz[patterns[on]] -= z[on] / float(C)
        f = a * Dz
        ks.append(k)
        acc.append(float(np.mean(np.where(f >= 0, 1.0, -1.0) == y)))
    return np.array(ks, dtype=int), np.array(acc)


def _op_select(D, l, p, ranked, rank_bias, press, timer, *, k_rule="press", solve="lstsq", C=1.0, y=None):
    """k* by ``k_rule`` over k = 1..len(ranked); returns (k*, cols of D_k*, press, guarded, qr, stop, extra).

    The PRESS curve is computed under every rule (a diagnostic, and its QR
    factor is reused by the final solve); ``extra`` holds the training
    accuracies of ``k_rule="training-accuracy"``.
    """
    cols = list(ranked) if rank_bias else [0] + list(ranked)
    first = 1 if rank_bias else 2
    extra = {}
    with timer("selection"):
        curve, guarded, qr, stop = press_curve(D, l, cols, variant=press, first=first, precision=p)
        if k_rule == "press":
            finite = np.isfinite(curve)
            k_star = int(np.argmin(np.where(finite, curve, np.inf))) + 1 if finite.any() else 1
            if len(curve) and not finite.any():   # the paper's rule has no value to minimise: said, recorded
                extra = {"k_fallback": "no finite PRESS(k): k* = 1"}
                warnings.warn(FallbackWarning(
                    f"op-lssvm: PRESS(k) is undefined (a leave-one-out leverage h_ii within 20 u of 1: rows "
                    f"guarded per k {list(map(int, guarded))}) or overflows float64 at every k = 1..{len(curve)}; "
                    f"k* = 1 by fallback (diagnostics 'k_fallback')"), stacklevel=4)
        elif k_rule == "fixed":
            k_star = len(cols) - first + 1
        else:
            ks, acc = _training_accuracy(D, l, cols, first, p, solve, qr if press == "qr" else None, C,
                                         np.asarray(y, dtype=float))
            k_star = int(ks[int(np.argmax(acc))]) if len(acc) else 1  # MATLAB max: the first largest
            extra = {"training_accuracy": acc, "training_accuracy_k": ks}
    return k_star, cols[:k_star + first - 1], curve, guarded, qr, stop, extra


_SELECTION_MEMO: contextvars.ContextVar = contextvars.ContextVar("lssvm_op_selection_memo", default=None)


@contextlib.contextmanager
def shared_selection():
    """Within the block, op-lssvm fits of the same data, kernel, precision and options but another
    ``solve`` share steps 1-3 (D, the MRSR ranking, the PRESS curve and k*, cond_2(D_k)).

    Those steps do not read ``solve`` (but under ``k_rule="training-accuracy"``, whose loop
    solves: there it is part of the key), so the second fit of a pair (the normal-equations
    study fits ``lstsq`` and ``normal-equations`` on one ranking) gets the first one's results,
    bit for bit, warnings included (:class:`~lssvm_analysis.core.memo.Memo`), and only solves.
    One entry is kept (D is (L + 1)^2 numbers of the precision) and released when the block
    ends.  Nested blocks share the outer memo.

    Yields
    ------
    Memo
        Its ``hits`` and ``misses`` count the fits served and computed.
    """
    with scoped(_SELECTION_MEMO, max_entries=1) as memo:
        yield memo


def op_selection(X, y, k, p, timer, shared, conditioning):
    """(D, l, selection) of :func:`fit_op_lssvm` before its solve; inside :func:`shared_selection`,
    from its memo when the same data, kernel, precision and options (``shared``: the fit's params
    that the steps before the solve read) were the last ones (the phases are then recorded with
    the seconds of the lookup).

    ``selection`` holds the diagnostics (ranking, PRESS curve, k*, columns, MRSR records,
    cond_2(D_k)), the QR factor of the PRESS step and the number of MRSR steps.
    """
    memo = _SELECTION_MEMO.get()
    if memo is None:
        return _op_steps(X, y, k, p, timer, conditioning=conditioning, **shared)
    parts = (array_key(np.asarray(X)), array_key(np.asarray(y)), json_key(shared))
    key = None if None in parts else (p.name, bool(conditioning), k.name) + parts

    def compute():   # a miss: the phases go to the fit's timer as they run
        before = set(timer.as_dict())
        D, l, sel = _op_steps(X, y, k, p, timer, conditioning=conditioning, **shared)
        return D, l, {**sel, "phases": tuple(ph for ph in timer.as_dict() if ph not in before)}

    hits = memo.hits
    D, l, sel = memo.get(key, compute, copy=_fresh_selection)
    if memo.hits > hits:   # a hit: the same phases, with the seconds of the lookup
        for phase in sel["phases"]:
            with timer(phase):
                pass
    return D, l, sel


def _fresh_selection(value):
    """The stored (D, l, selection) with the selection's arrays copied (the caller may write them)."""
    D, l, sel = value
    return D, l, {key: v.copy() if isinstance(v, np.ndarray) else v for key, v in sel.items()}


def _op_steps(X, y, k, p, timer, *, C, task, ranking, press, k_max, rank_bias, normalize, reading,
              k_rule, conditioning, solve="lstsq", **_kernel):
    """Steps 1-3 of :func:`fit_op_lssvm`: D and l, the MRSR ranking, k* and the PRESS curve."""
    D, l = lssvm_system(X, y, k, p, C, task, timer, peak=OP_PEAK)
    D = p.keep(D)  # PRESS and the solve take products with its column sets (mpN: FLINT form kept)
    with timer("ranking"):
        Xr, lr, colmap = _ranking_inputs(D, l, p, rank_bias, normalize, reading, y)
        path = mrsr(Xr, lr, k_max=k_max, variant=ranking,
                    normalize="none" if normalize == "none" else "unit-norm", precision=p)
    ranked = colmap[path.order]
    k_star, cols, curve, guarded, qr, stop, extra = _op_select(
        D, l, p, ranked, rank_bias, press, timer, k_rule=k_rule, solve=solve, C=C, y=y)
    sel = {"ranking": ranked, "press": curve, "press_guarded": guarded, "k_star": k_star,
           "columns": np.array(cols), "mrsr_status": path.status, "mrsr_steps": path.steps,
           "mrsr_pivots": path.pivots, "press_stop": stop, "k_rule": k_rule, **extra,
           "qr": qr if press == "qr" else None, "n_steps": len(path.order)}
    if conditioning:
        with timer("conditioning"):
            cp = _cond_path(D, list(ranked) if rank_bias else [0] + list(ranked), p)
        sel["cond_Dk"] = cp if rank_bias else cp[1:]
        sel["cond_D_star"] = float(cp[len(cols) - 1])
    return D, l, sel
