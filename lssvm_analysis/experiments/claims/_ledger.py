"""The claims ledger: one registry of the five papers' claims, each with the rule that judges it.

A :class:`Claim` names the paper, the place (section, table, equation), the
claim in one line, the printed number, the records that test it (keys of its
home report section's sweeps) and a rule ``rule(records) -> Verdict`` that
reads those records (pandas frames) and decides.  A claim that cannot be
tested offline has no rule and says why.  The report only renders what
:func:`evaluate` returns; no other place of the report asserts a verdict.

Every rule must be able to come out either way: each claim with a rule
carries ``examples()``, synthetic records for which the rule must give each
of two different outcomes (checked by the test suite over the registry).

Every claim is a row of the inventory ``shared/CLAIMS.md`` (:mod:`.inventory`): the
paper's words, the line they stand on and the comparator with its threshold
come from that row unless the registration gives its own (``reading`` says why
a rule judges a row differently from the inventory).  A claim with two aspects
is split into sub-claims ``<id>/<aspect>``; the parent is registered with
``parts=True`` and holds iff every sub-claim holds (:func:`combine`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from dataclasses import replace as _with_fields
from typing import Callable

import pandas as pd

from .inventory import inventory
from ..papers import load_papers, paper_of_claim

__all__ = ["OUTCOMES", "Verdict", "Claim", "register_claim", "claims", "get_claim", "evaluate",
           "select_records", "ledger_frame", "combine", "sub_claims"]

#: The verdicts a rule may return.
#:
#: * "does not hold": the claim fails under the paper's own protocol and data (or a faithful
#:   equivalent), in theory, or by the paper's own numbers.
#: * "not reproduced": our data, protocol or implementation differ from the paper's in a way that can
#:   explain the deviation (a stand-in or another data version, a grid edge, a subsample, an
#:   implementation-dependent timing, today's hardware); the cause is named.  A stand-in may refute
#:   only as "not reproduced", and confirm only as "holds" with ``stand_in`` named.
#: * "undecided": the data cannot separate the outcomes at the stated confidence (the uncertainty
#:   says how far, and what would decide); "not run": the profile has no records for it.
OUTCOMES = ("holds", "does not hold", "not reproduced", "holds only when", "undecided", "not testable offline",
            "not run")


@dataclass(frozen=True)
class Verdict:
    """What a rule decided, with the numbers behind it.

    Attributes
    ----------
    outcome : str
        One of :data:`OUTCOMES`.
    measured : str
        Our number(s), to be read beside the printed one.
    uncertainty : str
        The statistics behind the outcome (paired test, CI over splits, or a bound).
    condition : str
        For "holds only when": the condition.
    cause : str
        Deviations from the printed values and their cause ("unexplained" when none is known),
        or why a claim is not testable.  Required for "not reproduced": what differs from the paper.
    stand_in : str
        The stand-in data a "holds" was reached on (a confirmation on other data than the paper's);
        the label says so.
    """

    outcome: str
    measured: str = ""
    uncertainty: str = ""
    condition: str = ""
    cause: str = ""
    stand_in: str = ""

    def __post_init__(self):
        if self.outcome not in OUTCOMES:
            raise ValueError(f"expected an outcome in {OUTCOMES}, got outcome={self.outcome!r}")
        if self.outcome == "holds only when" and not self.condition:
            raise ValueError("expected a condition for the outcome 'holds only when', got condition=''")
        if self.outcome == "not reproduced" and not self.cause:
            raise ValueError("expected the cause (what differs from the paper) for the outcome 'not reproduced', "
                             "got cause=''")
        if self.stand_in and self.outcome != "holds":
            raise ValueError(f"expected stand_in only with the outcome 'holds' (a stand-in refutes only as "
                             f"'not reproduced'), got outcome={self.outcome!r}, stand_in={self.stand_in!r}")

    @property
    def label(self) -> str:
        """The outcome, with its condition for "holds only when" and its data for a stand-in's "holds"."""
        if self.outcome == "holds only when":
            return f"holds only when {self.condition}"
        if self.stand_in:
            return f"holds on the stand-in {self.stand_in}"
        return self.outcome

    def sentence(self) -> str:
        """The verdict sentence the report prints (label, our numbers, statistics, cause)."""
        parts = [p for p in (self.measured, self.uncertainty, self.cause) if p]
        return self.label + (": " + "; ".join(parts) if parts else "") + "."


@dataclass(frozen=True)
class Claim:
    """One claim of one paper (see the module docstring)."""

    id: str
    paper: str
    section: str
    where: str
    text: str
    printed: str
    records: tuple = ()
    rule: Callable | None = None
    evidence: tuple = ()
    untestable: str = ""
    examples: Callable | None = None
    order: float = field(default=0.0)
    quote: str = ""
    source: str = ""
    threshold: str = ""
    reading: str = ""
    parts: bool = False

    @property
    def parent(self) -> str | None:
        """The parent id of a sub-claim (``A-primal-stable`` of ``A-primal-stable/bd``), else None."""
        return self.id.split("/", 1)[0] if "/" in self.id else None


_CLAIMS: dict[str, Claim] = {}


def register_claim(id: str, *, paper: str, section: str, where: str, text: str, printed: str,
                   records=(), rule=None, evidence=(), untestable: str = "", examples=None,
                   replace: bool = False, quote: str | None = None, threshold: str | None = None,
                   reading: str = "", parts: bool = False) -> Claim:
    """Add a claim to the ledger (at import of the paper's module).

    Parameters
    ----------
    id : str
        Unique id, ``<paper prefix>-<short name>``.
    paper, section : str
        The paper key (a registered paper's, whose prefix the id carries) and the report section whose
        records the rule reads (its home section).
    where, text, printed : str
        Section / table / equation of the paper, the claim in one line, the printed number.
    records : tuple of str
        Keys of the home section's records (``"<section>/<key>"``: another section's); a key
        ending in ``*`` is a prefix.
    rule : callable, optional
        ``rule(records: dict[str, DataFrame]) -> Verdict``; None with ``untestable`` set.
    evidence : tuple of str
        File stems of the report's figures or tables that show the data (``<stem>.csv``).
    untestable : str
        Why the claim cannot be tested offline (only without a rule).
    examples : callable, optional
        ``examples() -> {outcome: records}`` with at least two different outcomes (with a rule).
    quote, threshold : str, optional
        The paper's words and the comparator with its threshold and reason; by default the
        inventory row's (``shared/CLAIMS.md``), which a claim of the five papers must have.
    reading : str
        Where the rule judges the row differently from the inventory: how, and why.
    parts : bool
        A parent of sub-claims ``<id>/<aspect>``: it holds iff they all hold.  A parent whose own
        words state an aspect that no sub-claim row states (the inventory's parent row with a
        threshold of its own beside one sub-claim) keeps a ``rule`` for it: that aspect is one more
        part of the conjunction.
    """
    if not isinstance(id, str) or not id:
        raise TypeError(f"expected a non-empty str id, got id={id!r}")
    if id in _CLAIMS and not replace:
        raise ValueError(f"expected a new claim id, got id={id!r} (already registered)")
    if parts and untestable:
        raise ValueError(f"expected no 'untestable' reason for the parent claim {id!r} "
                         f"(parts=True: its sub-claims decide), got untestable={untestable!r}")
    if not parts and (rule is None) == (not untestable):
        raise ValueError(f"expected either a rule or an 'untestable' reason for claim {id!r}, got "
                         f"rule={rule!r}, untestable={untestable!r}")
    if rule is not None and examples is None:
        raise ValueError(f"expected examples for both outcomes of claim {id!r}'s rule, got None")
    owner = paper_of_claim(id)  # the paper whose prefix the id carries (UnknownPaperError if none)
    if owner.key != paper:
        raise ValueError(f"expected paper={owner.key!r} for claim {id!r} (its prefix {owner.prefix!r} is that "
                         f"paper's), got paper={paper!r}")
    row = inventory().get(id)
    c = Claim(id, paper, section, where, text, printed, tuple(records), rule, tuple(evidence), untestable,
              examples, float(len(_CLAIMS)),
              quote=quote if quote is not None else (row.words if row else ""),
              source=row.where if row else "",
              threshold=threshold if threshold is not None else (row.threshold if row else ""),
              reading=reading, parts=bool(parts))
    _CLAIMS[id] = c
    return c


def claims(*, paper: str | None = None, section: str | None = None) -> list[Claim]:
    """The registered claims (in registration order), optionally of one paper or home section."""
    load_papers()
    return [c for c in sorted(_CLAIMS.values(), key=lambda c: c.order)
            if (paper is None or c.paper == paper) and (section is None or c.section == section)]


def get_claim(id: str) -> Claim:
    load_papers()
    try:
        return _CLAIMS[id]
    except KeyError:
        raise ValueError(f"expected a claim id in {sorted(_CLAIMS)}, got id={id!r}") from None


def _ran(df) -> pd.DataFrame:
    if not isinstance(df, pd.DataFrame) or not len(df):
        return pd.DataFrame()
    if "status" in df.columns:
        df = df[df["status"] != "error"]
    return df


def _declared(claim: Claim):
    """``(key, section, name, is_prefix)`` of each record the claim declares: a key ``"<section>/<key>"``
    names another section's record, one without a section the claim's own; a key ending in ``*`` is a
    prefix (``name`` without the ``*``)."""
    for key in claim.records:
        sec, _, k = key.rpartition("/")
        yield key, sec or claim.section, k.removesuffix("*"), k.endswith("*")


def reads(claim: Claim, section: str, key: str) -> bool:
    """Whether ``claim`` reads the record ``key`` of ``section`` (its ``records``, prefixes included)."""
    return any(sec == section and (key.startswith(name) if prefix else key == name)
               for _, sec, name, prefix in _declared(claim))


def select_records(claim: Claim, records_by_section: dict) -> dict:
    """The claim's records ``{key: DataFrame}`` from ``{section: {key: DataFrame}}``.

    A key ``"<section>/<key>"`` reads another section's records (kept under that name); a key
    ending in ``*`` is a prefix.  Rows of tasks that failed (the engine's "error" rows) are left out.
    """
    out = {}
    for key, sec, name, prefix in _declared(claim):
        pool = records_by_section.get(sec, {})
        label = key.rpartition("/")[0] + "/" if "/" in key else ""
        if prefix:
            out.update({label + kk: _ran(v) for kk, v in pool.items() if kk.startswith(name)})
        elif name in pool:
            out[key] = _ran(pool[name])
    return out


def sub_claims(claim: Claim) -> list[Claim]:
    """The registered sub-claims ``<id>/<aspect>`` of ``claim`` (registration order)."""
    return [c for c in claims() if c.parent == claim.id]


def combine(parts: list[tuple[str, Verdict]]) -> Verdict:
    """A parent's verdict from its sub-claims' ``(id, verdict)``: it holds iff every one holds.

    One sub-claim that does not hold decides "does not hold"; otherwise one that was not reproduced
    makes the parent "not reproduced" (with that sub-claim's cause); otherwise one that is undecided,
    not run or not testable leaves the parent "undecided" (a parent that holds needs every aspect
    decided); sub-claims that hold only under conditions make the parent hold only under all of
    them together, and a parent one of whose parts held only on a stand-in holds on the stand-in.
    """
    if not parts:
        raise ValueError("expected at least one sub-claim verdict, got parts=[]")
    said = "; ".join(f"{cid.rpartition('/')[2]}: {v.label}" for cid, v in parts)
    out = {v.outcome for _, v in parts}
    if "does not hold" in out:
        failed = ", ".join(cid for cid, v in parts if v.outcome == "does not hold")
        return Verdict("does not hold", measured=said, cause=f"{failed} does not hold")
    if "not reproduced" in out:
        nr = [(cid, v) for cid, v in parts if v.outcome == "not reproduced"]
        return Verdict("not reproduced", measured=said,
                       cause="; ".join(f"{cid} not reproduced: {v.cause}" for cid, v in nr))
    open_ = [cid for cid, v in parts if v.outcome in ("undecided", "not run", "not testable offline")]
    if open_:
        if out <= {"not testable offline"}:
            return Verdict("not testable offline", measured=said, cause="no sub-claim is testable offline")
        if out <= {"not run"}:
            return Verdict("not run", measured=said, cause="no sub-claim has records in this profile")
        return Verdict("undecided", measured=said, cause="the parent holds only if every sub-claim holds; open: "
                       + ", ".join(open_))
    conds = [v.condition for _, v in parts if v.outcome == "holds only when"]
    if conds:
        return Verdict("holds only when", condition=" and ".join(conds), measured=said)
    stand_ins = list(dict.fromkeys(v.stand_in for _, v in parts if v.stand_in))
    return Verdict("holds", measured=said, stand_in=", ".join(stand_ins))


def _partly_stored(claim: Claim, partial: dict) -> list[str]:
    """``"<key> (<description>)"`` of each of the claim's records that ``partial`` names."""
    return [f"{k} ({desc})" for full, desc in partial.items()
            for sec, _, k in [full.rpartition("/")] if reads(claim, sec, k)]


def evaluate(claim: Claim, records_by_section: dict, partial: dict | None = None) -> Verdict:
    """The claim's verdict from the report's records ``{section: {key: DataFrame}}``.

    ``partial`` names the planned records a store does not hold completely (``{"<section>/<key>":
    "48 of 1120 tasks stored"}``, :func:`~lssvm_analysis.report.publish.publish`): a claim reading one
    of them is "not run", never a verdict from part of its protocol.
    """
    if claim.parts:
        subs = sub_claims(claim)
        if not subs:
            raise ValueError(f"expected sub-claims '{claim.id}/…' of the parent claim {claim.id!r}, got none")
        own = [] if claim.rule is None else [(claim.id, evaluate(_with_fields(claim, parts=False),
                                                                 records_by_section, partial))]
        v = combine(own + [(c.id, evaluate(c, records_by_section, partial)) for c in subs])
        if own and own[0][1].measured:  # the parent's own aspect: its numbers stand in its row
            v = _with_fields(v, measured=f"{v.measured}; {claim.id}: {own[0][1].measured}")
        return v
    if claim.rule is None:
        return Verdict("not testable offline", cause=claim.untestable)
    in_part = _partly_stored(claim, partial or {})
    if in_part:
        return Verdict("not run", cause="its records are not all stored: " + ", ".join(in_part))
    mine = select_records(claim, records_by_section)
    if not any(len(v) for v in mine.values()):
        return Verdict("not run", cause="no records for it in this profile ("
                       + ", ".join(claim.records) + ")")
    return claim.rule(mine)


def ledger_frame(records_by_section: dict, partial: dict | None = None) -> pd.DataFrame:
    """Every claim with its verdict: one row per claim (the ledger the report opens with).

    ``partial``: the planned records not all stored, whose claims say "not run" (:func:`evaluate`).
    """
    rows = []
    for c in claims():
        v = evaluate(c, records_by_section, partial)
        rows.append({"id": c.id, "paper": c.paper, "where": c.where, "source": c.source, "quote": c.quote,
                     "claim": c.text, "threshold": c.threshold, "reading": c.reading, "verdict": v.label,
                     "sentence": v.sentence(), "printed": c.printed, "measured": v.measured,
                     "uncertainty": v.uncertainty, "cause": v.cause, "section": c.section,
                     "evidence": " ".join(c.evidence)})
    # every cell is text a reader sees: an empty one is "", never NaN (nor None)
    return pd.DataFrame(rows, columns=_LEDGER_COLUMNS).fillna("").astype(str)


#: The ledger's columns, in the order of its CSV.
_LEDGER_COLUMNS = ["id", "paper", "where", "source", "quote", "claim", "threshold", "reading", "verdict",
                   "sentence", "printed", "measured", "uncertainty", "cause", "section", "evidence"]
