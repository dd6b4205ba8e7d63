"""The claims ledger of the five papers (see :mod:`._ledger`); one module per paper registers its claims.

>>> from lssvm_analysis.experiments.claims import claims, evaluate
>>> [c.id for c in claims(paper="vieira")][:2]
['V-accuracy', 'V-sparsity']
"""
from ._ledger import OUTCOMES, Claim, Verdict, claims, evaluate, get_claim, ledger_frame, register_claim

# Each paper's module registers its claims at import (one line per paper).
from . import abe, chen_zhou, chen_zhou_numerics, chen_zhou_tables, suykens, vieira, zhao_sun  # noqa: E402,F401

__all__ = ["OUTCOMES", "Claim", "Verdict", "claims", "evaluate", "get_claim", "ledger_frame", "register_claim"]
