"""asv benchmark suites of lssvm_analysis (``asv run``; see asv.conf.json).

Timings are single-threaded on purpose: ratios measured on a shared 2-core
machine are only stable when BLAS does not spread over the cores.  The asv
configuration sets OPENBLAS_NUM_THREADS=1 through its ``env_nobuild`` matrix,
but ``asv run --python=same`` ignores the matrix, so the package sets it here
too, before any suite imports NumPy, and :mod:`benchmarks.common` limits the
BLAS pools at run time in case NumPy was loaded first.
"""
import os

__all__ = []

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"
