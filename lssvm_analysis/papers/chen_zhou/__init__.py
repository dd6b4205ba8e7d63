"""Chen & Zhou (2018): robust sparse LS-SVM in the primal (SR-LSSVM, PCP-LSSVM).

Kinds: :mod:`.kinds`, :mod:`.kinds_numerics`; claims: :mod:`.claims`, :mod:`.claims_numerics`,
:mod:`.claims_tables` (printed tables in :mod:`.printed`); section: :mod:`.section`.  Solvers:
``pcp-lssvm``, ``sr-lssvm`` and the baselines ``r-lssvm-w``, ``r-lssvm-y``, ``w-lssvm``,
``fs-lssvm`` (:mod:`lssvm_analysis.solvers`).
"""
from ...experiments.papers import register_paper

PAPER = register_paper("chen-zhou", prefix="C", title="Chen & Zhou: robust sparse LS-SVM in the primal",
                       sections=("chen-zhou",), package=__name__)

from . import claims, claims_numerics, claims_tables  # noqa: E402,F401  (register the claims, in ledger order)
from . import kinds, kinds_numerics, section  # noqa: E402,F401  (register the kinds and the section)

__all__ = ["PAPER"]
