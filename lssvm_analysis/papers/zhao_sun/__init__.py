"""Zhao & Sun: reduced and recursive reduced least squares SVR.

Kinds: :mod:`.kinds`; claims: :mod:`.claims`; section: :mod:`.section`.  Solvers:
``reduced-lssvr``, ``rr-lssvr`` (:mod:`lssvm_analysis.solvers`).
"""
from ...experiments.papers import register_paper

PAPER = register_paper("zhao-sun", prefix="Z", title="Zhao & Sun: reduced and recursive reduced LSSVR",
                       sections=("zhao-sun",), package=__name__)

from . import claims  # noqa: E402,F401  (registers the claims)
from . import kinds, section  # noqa: E402,F401

__all__ = ["PAPER"]
