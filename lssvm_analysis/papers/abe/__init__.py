"""Abe (2009): sparse least squares SVR in the primal and in the dual (ELS SVR).

Kinds: :mod:`.kinds` (and the crossover timing, :mod:`.crossover_timing`); claims:
:mod:`.claims`, :mod:`.claims_numerics` (examples and Table 1 in :mod:`.claims_examples`);
section: :mod:`.section` (tables in :mod:`.section_tables`).  Solvers: ``els-primal``,
``els-dual`` (:mod:`lssvm_analysis.solvers.abe`).
"""
from ...experiments.papers import register_paper

PAPER = register_paper("abe", prefix="A", title="Abe: primal against dual ELS SVR", sections=("abe",),
                       package=__name__)

from . import claims, kinds, section  # noqa: E402,F401  (register the claims, kinds and section)

__all__ = ["PAPER"]
