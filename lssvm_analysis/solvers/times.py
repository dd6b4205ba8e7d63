"""The measured time of every solver family's fit, one :class:`TimeModel` each (issue 42).

Each family registers its declaration (``register(..., time=...)``, beside ``peak``) and
``la.fit(..., max_seconds=...)`` refuses, before any work, a fit whose estimate is clearly beyond
the limit (:mod:`lssvm_analysis.linalg.cost`).  A model is a sum of terms ``c (n+1)^a r^b``
whose exponents are the algorithm's complexity (a dense factorization n^3 + the kernel n^2, a
support-set least squares n r^2 + r^3 + n r, LIBSVM's SMO n^p with p measured) and whose
coefficients are MEASURED: relative non-negative least squares on the CPU seconds of the
registry's example problem (d = 2) at three or more sizes per engine
(``benchmarks/measure_times.py``, which prints them; the figures, date and machine are at
:data:`MEASURED`).  A coefficient NNLS set to 0 drops its term at that engine.
"""
from __future__ import annotations

from ..linalg.cost import TimeModel, TimeTerm

__all__ = ["MEASURED", "DENSE_TIME", "KKT_TIME", "CG_TIME", "PRUNED_TIME", "ELS_PRIMAL_TIME", "ELS_DUAL_TIME",
           "SVM_TIME", "SVR_TIME", "OP_TIME", "IP_TIME", "RR_TIME", "REDUCED_TIME", "PCP_TIME", "SR_TIME",
           "CCCP_W_TIME", "CCCP_Y_TIME", "WEIGHTED_TIME", "FS_TIME"]

#: Where every coefficient below comes from.
MEASURED = "PLACEHOLDER"


def _model(structure, *, r="", r_default=0.0, **by_key):
    """A TimeModel from the family's exponents ``structure`` ((a, b) of (n+1)^a r^b, per term) and one
    coefficient per term per engine key (0: the term is dropped at that engine)."""
    terms = {key: tuple(TimeTerm(c, n=a, r=b) for c, (a, b) in zip(coefs, structure, strict=True) if c > 0)
             for key, coefs in by_key.items()}
    return TimeModel(terms, r=r, r_default=r_default, measured=MEASURED)


_ALL = dict(hw8=None, hw4=None, sw16=None, mp=None)
_CUBIC = ((3, 0), (2, 0), (0, 0))
_SUPPORT = ((1, 2), (1, 1), (0, 3), (0, 0))


def _ph(structure, keys=("hw8", "hw4", "sw16", "mp"), **kw):
    return _model(structure, **kw, **{k: (1.0,) * len(structure) for k in keys})


DENSE_TIME = _ph(_CUBIC)
KKT_TIME = _ph(_CUBIC)
CG_TIME = _ph(_CUBIC)
PRUNED_TIME = _ph(_CUBIC)
ELS_PRIMAL_TIME = _ph(((2, 1), (0, 3), (2, 0), (0, 0)), r="N")
ELS_DUAL_TIME = _ph(((2, 1), (0, 3), (2, 0), (0, 0)), r="N")
SVM_TIME = _ph(((2, 0), (0, 0)), keys=("hw8",))
SVR_TIME = _ph(((2, 0), (0, 0)), keys=("hw8",))
OP_TIME = _ph(_CUBIC)
IP_TIME = _ph(_CUBIC)
RR_TIME = _ph(((2, 1), (1, 2), (2, 0), (0, 0)), r="n_support")
REDUCED_TIME = _ph(_SUPPORT, r="n_support", r_default=0.1)
PCP_TIME = _ph(_SUPPORT, r="n_support", r_default=0.05)
SR_TIME = _ph(_SUPPORT, r="n_support", r_default=0.05)
CCCP_W_TIME = _ph(_CUBIC)
CCCP_Y_TIME = _ph(_CUBIC)
WEIGHTED_TIME = _ph(_CUBIC)
FS_TIME = _ph(((1, 2), (1, 1), (0, 3), (0, 2), (0, 0)), r="n_support", r_default=0.05)
