"""The claims ledger in the report: the table the page opens with, each section's slice, and the gate.

The verdicts come from :mod:`lssvm_analysis.experiments.claims` (the rules read
the records); this module only renders them: the section "ledger" (every
claim: claim → verdict → evidence → printed number beside ours), and, at the
end of each section, the slice of the claims whose home it is, whose
sentences are the section's verdict box.  :func:`page_problems` is the gate:
every claim appears with a verdict, every verdict sentence on the page is a
ledger sentence, and no other text asserts one.
"""
from __future__ import annotations

import html as _html
import re
from pathlib import Path

import pandas as pd

from ..experiments.claims import OUTCOMES, claims, ledger_frame
from .figures import save_table
from .html import Link, Section
from .registry import register_section

__all__ = ["ledger_table", "append_slices", "page_problems", "VERDICT_WORDS"]

#: Words that assert a verdict; outside the ledger's table and the verdict boxes the page must not use them
#: ("holds 3 digits", a measurement, is not one).
VERDICT_WORDS = re.compile(r"\bholds\b(?!\s+\d)|\b(does not hold|as claimed|confirmed|refuted)\b|\bNOT\b")
_KEY = "ledger"


def _evidence(out: Path, section: str, stems) -> list:
    links = [Link("§", f"#{section}")]
    for stem in stems:
        for ext, label in ((".png", "figure"), (".csv", "CSV")):
            if (Path(out) / f"{stem}{ext}").is_file():
                links.append(Link(f"{stem} {label}", f"{stem}{ext}"))
    return links


def _claim_cell(quote: str, claim: str, reading: str) -> str:
    """The paper's words, then what we measure, then our reading where it differs from the inventory's."""
    words = f"“{quote}” → " if quote and quote != "(same words)" else ""
    return words + claim + (f" (our reading: {reading})" if reading else "")


def ledger_table(frame: pd.DataFrame, out, name: str, caption: str):
    """The ledger rows of ``frame`` (from :func:`ledger_frame`) as a TableRef with links; writes ``name``.csv.

    Columns: id; the paper and the line its words stand on; the words and the claim as measured;
    the verdict sentence (our numbers and their uncertainty); the rule with its threshold and the
    threshold's reason; links to the evidence; the paper's printed number.
    """
    source = [f"{p}, {w}" + (f" ({s})" if s else "") for p, w, s in zip(frame.paper, frame["where"], frame.source)]
    shown = pd.DataFrame({
        "id": frame.id, "paper, where": source,
        "paper's words → claim": [_claim_cell(q, c, r) for q, c, r in zip(frame.quote, frame.claim, frame.reading)],
        "verdict": frame.sentence, "rule (threshold, reason)": frame.threshold,
        "evidence": [_evidence(out, s, e.split()) for s, e in zip(frame.section, frame.evidence)],
        "printed (paper)": frame.printed})
    return save_table(shown, out, name, caption, data=frame)


def _counts(frame) -> str:
    c = frame.verdict.map(lambda v: "holds only when" if v.startswith("holds only when")
                          else "holds" if v.startswith("holds on the stand-in") else v).value_counts()
    return ", ".join(f"{c[o]} {o}" for o in OUTCOMES if o in c)


_LAST: list = [None, None]  # (records, frame): the ledger section and the slices judge one records object once


def _frame(records: dict) -> pd.DataFrame:
    """:func:`ledger_frame` of ``records``, computed once per records object (the page renders the ledger and
    then its slices from the same dict: ~1.8 CPU-s each time on the default profile)."""
    if _LAST[0] is not records:
        _LAST[:] = [records, ledger_frame(records)]
    return _LAST[1]


def append_slices(sections: list[Section], out, records: dict) -> None:
    """End every section that is the home of claims with its slice of the ledger and its verdict box.

    The page's last use of the ledger frame: the cache is emptied, so a later page built from the same dict,
    changed in between, is judged afresh."""
    frame = _frame(records)
    _LAST[:] = [None, None]
    for sec in sections:
        mine = frame[frame.section == sec.anchor]
        if sec.anchor == _KEY or not len(mine):
            continue
        sec.h3("Claims of this section (from the ledger)")
        sec.ledger(ledger_table(mine, out, f"ledger-{sec.anchor}", f"The claims whose records this section "
                                f"shows ({_counts(mine)}); the same rows as in the ledger at the top."))
        sec.verdict = [f"{i}: {s}" for i, s in zip(mine.id, mine.sentence)]


def _render(sec, out, records, profile) -> str:
    frame = _frame(records)
    sec.p(f"Every claim of the five papers (the inventory shared/CLAIMS.md), one row each: where the paper "
          f"makes it and its words, what we measure, the verdict our records give with the statistics behind "
          f"it, the rule with its threshold fixed before the results and the threshold's reason, links to "
          f"the section, figure and CSV that show the data, and the paper's printed number beside ours "
          f"(profile '{profile}'). A claim of two aspects is split into sub-claims id/aspect, and its "
          "parent row is their conjunction (each sub-claim must come out in the paper's favour). "
          "A rule in lssvm_analysis.experiments.claims decides each verdict from the records; the report "
          "only prints it. Each paper's section ends with its rows.")
    sec.ledger(ledger_table(frame, out, "ledger", f"The claims ledger: {len(frame)} claims ({_counts(frame)}). "
                            "Outcomes: holds; does not hold; holds only when …; undecided (the data cannot "
                            "separate the outcomes at 95 %); not testable offline (with the reason); not run "
                            "(no records in this profile). Deviations of more than 2 printed standard "
                            "deviations name their cause, or say 'unexplained'."))
    return ""


def page_problems(text: str, frame: pd.DataFrame) -> list[str]:
    """What breaks the ledger's gate on a rendered page (an empty list: the page passes).

    Parameters
    ----------
    text : str
        The page's HTML.
    frame : DataFrame
        :func:`ledger_frame` of the records the page was rendered from.
    """
    problems = []
    sentences = set(frame.sentence)
    tables = re.findall(r'<table class="ledger">(.*?)</table>', text, flags=re.S)
    boxes = re.findall(r'<div class="verdict">(.*?)</div>', text, flags=re.S)
    rows = [re.findall(r"<td>(.*?)</td>", r, flags=re.S) for t in tables for r in re.findall(r"<tr>(.*?)</tr>", t,
                                                                                            flags=re.S)]
    seen = {}
    for cells in rows:
        if len(cells) >= 4:
            seen.setdefault(_html.unescape(cells[0]), []).append(_html.unescape(cells[3]))
    for cid, sentence in zip(frame.id, frame.sentence):
        got = seen.get(cid)
        if not got:
            problems.append(f"claim {cid} has no row in a ledger table")
        elif any(g != sentence for g in got):
            problems.append(f"claim {cid}: a ledger row's verdict differs from the ledger's sentence")
        elif not any(sentence.startswith(o) for o in OUTCOMES):
            problems.append(f"claim {cid}: its verdict does not start with an outcome")
    for box in boxes:
        for item in re.findall(r"<li>(.*?)</li>", box, flags=re.S):
            cid, _, s = _html.unescape(item).partition(": ")
            if s not in sentences:
                problems.append(f"a verdict box asserts a sentence not in the ledger: {item[:120]!r}")
    rest = re.sub(r'<table class="ledger">.*?</table>|<div class="verdict">.*?</div>|<style>.*?</style>', " ", text,
                  flags=re.S)
    plain = _html.unescape(re.sub(r"<[^>]+>", " ", rest))
    for m in VERDICT_WORDS.finditer(plain):
        problems.append(f"verdict wording outside the ledger: …{plain[max(0, m.start() - 80):m.end() + 40]!r}…")
    return problems


register_section(_KEY, title="Claims ledger: every claim of the five papers, its verdict and evidence", order=1,
                 plan=lambda profile, run: {}, render=_render, reads_all=True)
