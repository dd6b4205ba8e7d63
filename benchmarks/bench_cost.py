"""Each solver's measured fit time against its declared time model (issue 42).

``CostModelAccuracy.track_measured_over_estimated`` is the CPU seconds of one float64 fit
(``time.process_time``, one BLAS thread: the work, not a loaded machine's waits) over the seconds
the solver's registered ``TimeModel`` estimates for that n, d and r -- the estimate by which
``la.fit(..., max_seconds=...)`` refuses a fit before any work.  The models were fitted on the
registry's example problems (d = 2, ``benchmarks/measure_times.py``); this runs every solver on the
benchmark data (``common.solver_problem``: d = 4, noisy) at n = 600, so the ratio checks that the
model carries over to other data.  Target: within the refusal margin, 1/10 <= ratio <= 10
(``lssvm_analysis.linalg.cost.MARGIN``); near 1 is an accurate model.  The whole suite takes a
few seconds (n = 600: every fit is well under a second).
"""
import time

from . import common
from .common import la

__all__ = ["CostModelAccuracy"]

_N = 600


class CostModelAccuracy(common.OneShot):
    """measured / estimated CPU seconds of one float64 fit per solver."""

    params = [common.solver_names()]
    param_names = ["solver"]
    timeout = 120
    repeat = (1, 1, 30.0)

    def setup(self, solver):
        info = common.require_solver(solver)
        common.require_precision(info, "float64")
        if getattr(info, "time", None) is None:
            raise common.Missing(f"solver {solver!r} declares no time model in this version")
        self.info = info
        self.X, self.y, self.kw = common.solver_problem(solver, common.size(_N))
        la.fit(solver, self.X, self.y, max_seconds=None, **self.kw)   # warm caches (imports, kernels)

    def track_measured_over_estimated(self, solver):
        """CPU seconds of one fit / the model's estimate at its n, d and r (target 0.1-10, near 1)."""
        t0 = time.process_time()
        fit = la.fit(solver, self.X, self.y, max_seconds=None, **self.kw)
        took = time.process_time() - t0
        model = self.info.time
        n, d = self.X.shape
        est = model.seconds(n, d, "float64", r=model.r_of(fit) or model.r_for(n, self.kw))
        return common.round_sig(took / est, 2)

    track_measured_over_estimated.unit = "ratio"
