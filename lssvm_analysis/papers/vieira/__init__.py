"""Vieira et al.: OP-LSSVM (MRSR + PRESS) against SVM, LSSVM and IP-LSSVM.

Kinds: :mod:`.kinds`, :mod:`.kinds_numerics`; claims: :mod:`.claims` (records and printed
Table 2 in :mod:`.claims_records`, steps in :mod:`.claims_steps`); section: :mod:`.section`.
Solvers: ``op-lssvm``, ``ip-lssvm`` (:mod:`lssvm_analysis.solvers.vieira`).
"""
from ...experiments.papers import register_paper

PAPER = register_paper("vieira", prefix="V", title="Vieira et al.: OP-LSSVM against SVM, LSSVM and IP-LSSVM",
                       sections=("vieira",), package=__name__)

from . import claims  # noqa: E402,F401  (registers the claims)
from . import kinds, kinds_numerics, section  # noqa: E402,F401

__all__ = ["PAPER"]
