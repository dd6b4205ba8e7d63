"""What :func:`lssvm_analysis.testing.check_solver` returns: plain Python, so that the pytest plugin stays light."""
from __future__ import annotations

__all__ = ["SolverReport"]


class SolverReport(list):
    """The labels of the checks that ran (a list, as before), with what did not run.

    Attributes
    ----------
    solver : str
    skipped : dict
        Check -> why it could not run (no ``peak`` declared, no ``system`` hook, ...).
    accepted : tuple of str
        What the caller accepted instead of a check (``"accuracy='skip'"``).
    """

    def __init__(self, solver, ran, skipped, accepted=()):
        super().__init__(ran)
        self.solver, self.skipped, self.accepted = solver, dict(skipped), tuple(accepted)

    @property
    def ran(self) -> list:
        return list(self)

    def __str__(self) -> str:
        lines = [f"{self.solver}: {len(self)} checks ran"]
        lines += [f"  not run: {k}: {v}" for k, v in self.skipped.items()]
        lines += [f"  accepted by the caller: {a}" for a in self.accepted]
        return "\n".join(lines)
