"""Suykens et al. (2002), chapter 3: basic LS-SVM methods (KKT, Schur complement, CG, tables).

Kinds: :mod:`.kinds`, :mod:`.kinds_numerics`, :mod:`.kinds_tables`; claims: :mod:`.claims`,
:mod:`.claims_numerics` (cells in :mod:`.claims_cells`, printed tables in :mod:`.printed`);
sections: :mod:`.section`, :mod:`.section_tables`.  Solvers: ``lssvm-kkt``, ``lssvm-schur``,
``lssvm-cg``, ``krr``, ``lssvm-fisher``, ``lssvm-pruned`` (:mod:`lssvm_analysis.solvers`).
"""
from ...experiments.papers import register_paper

PAPER = register_paper("suykens", prefix="S", title="Suykens: KKT, Schur complement and CG",
                       sections=("suykens", "suykens-tables"), package=__name__)

from . import claims  # noqa: E402,F401  (registers the claims)
from . import kinds, kinds_numerics, kinds_tables, section, section_tables  # noqa: E402,F401

__all__ = ["PAPER"]
