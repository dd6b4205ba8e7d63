"""The claims ledger: the engine that judges every registered claim (see :mod:`._ledger`).

The claims themselves live in their paper's room (``lssvm_analysis/papers/<paper>/claims*.py``)
and register at its import; the registry loads the papers the first time it is read
(:func:`lssvm_analysis.experiments.papers.load_papers`), so importing the engine or its
statistics registers nothing.

>>> from lssvm_analysis.experiments.claims import claims, evaluate
>>> [c.id for c in claims(paper="vieira")][:2]
['V-accuracy', 'V-sparsity']
"""
from ._ledger import (OUTCOMES, Claim, Verdict, claims, combine, evaluate, get_claim, ledger_frame, reads,
                      register_claim, select_records, sub_claims)

__all__ = ["OUTCOMES", "Claim", "Verdict", "claims", "combine", "evaluate", "get_claim", "ledger_frame",
           "reads", "register_claim", "select_records", "sub_claims"]
