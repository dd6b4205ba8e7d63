"""Static HTML of the report: sections of text, figures, tables and a verdict.

Everything is referenced by a path relative to ``index.html``; nothing is
fetched from the network (no scripts, no web fonts), so the page renders
from a local directory or an archive.
"""
from __future__ import annotations

import html
import html.parser
from dataclasses import dataclass, field
from pathlib import Path

from .figures import FigureRef, TableRef, fmt_num

__all__ = ["Section", "render_page", "write_page", "linked_files", "GENERATOR"]

#: Marker in every page this module writes (a previous report is recognized by it).
GENERATOR = "lssvm_analysis.report"

_CSS = """
body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;
color:#222;line-height:1.45}
h1{font-size:1.7em}h2{border-bottom:2px solid #ccd;padding-bottom:.2em;margin-top:2em}
h3{margin-top:1.5em}figure{margin:1.2em 0}figure img{max-width:100%;border:1px solid #ddd}
figcaption{font-size:.92em;color:#444}table{border-collapse:collapse;font-size:.88em;margin:.6em 0}
th,td{border:1px solid #ccc;padding:.25em .5em;text-align:right}th{background:#f0f2f8}
td:first-child,th:first-child{text-align:left}.verdict{background:#eef6ee;border-left:5px solid #4a4;
padding:.6em 1em;margin:1.2em 0}.note{background:#fff8e6;border-left:5px solid #d92;padding:.5em 1em}
.meta{font-size:.9em;color:#555}code{background:#f4f4f4;padding:0 .2em}
"""


@dataclass
class Section:
    """One report section: blocks of (kind, payload) in order, and its verdict.

    Blocks are ``("p", text)``, ``("note", text)``, ``("h3", text)``,
    ``("figure", FigureRef)`` and ``("table", TableRef)``.  The verdict is
    the sentence computed from the data that closes the section.
    """

    title: str
    anchor: str
    blocks: list = field(default_factory=list)
    verdict: str = ""

    def p(self, text: str):
        self.blocks.append(("p", text))

    def note(self, text: str):
        self.blocks.append(("note", text))

    def h3(self, text: str):
        self.blocks.append(("h3", text))

    def figure(self, ref: FigureRef):
        self.blocks.append(("figure", ref))

    def table(self, ref: TableRef):
        self.blocks.append(("table", ref))

    def files(self) -> list[str]:
        """Relative paths of every file the section links to."""
        out = []
        for kind, b in self.blocks:
            if kind == "figure":
                out += [b.png, b.csv]
            elif kind == "table":
                out.append(b.csv)
        return out


def _table_html(t: TableRef) -> str:
    df = t.frame
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in df.columns)
    body = []
    for _, row in df.iterrows():
        cells = "".join(f"<td>{html.escape(v if isinstance(v, str) else fmt_num(v))}</td>"
                        for v in row.tolist())
        body.append(f"<tr>{cells}</tr>")
    return (f"<table><caption>{html.escape(t.caption)} "
            f"(<a href=\"{html.escape(t.csv)}\">CSV</a>)</caption>"
            f"<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>")


def _block_html(kind, b) -> str:
    if kind == "p":
        return f"<p>{html.escape(b)}</p>"
    if kind == "note":
        return f"<p class=\"note\">{html.escape(b)}</p>"
    if kind == "h3":
        return f"<h3>{html.escape(b)}</h3>"
    if kind == "figure":
        return (f"<figure><img src=\"{html.escape(b.png)}\" alt=\"{html.escape(b.alt)}\">"
                f"<figcaption>{html.escape(b.caption)} "
                f"(<a href=\"{html.escape(b.csv)}\">data CSV</a>)</figcaption></figure>")
    if kind == "table":
        return _table_html(b)
    raise ValueError(f"expected a block kind in p/note/h3/figure/table, got {kind!r}")


def render_page(title: str, sections: list[Section], *, meta: list[str] = ()) -> str:
    """The whole page as a string."""
    toc = "".join(f"<li><a href=\"#{html.escape(s.anchor)}\">{html.escape(s.title)}</a></li>"
                  for s in sections)
    parts = [f"<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"
             f"<meta name=\"generator\" content=\"{GENERATOR}\">"
             f"<title>{html.escape(title)}</title><style>{_CSS}</style></head><body>",
             f"<h1>{html.escape(title)}</h1>"]
    parts += [f"<p class=\"meta\">{html.escape(m)}</p>" for m in meta]
    parts.append(f"<ol>{toc}</ol>")
    for s in sections:
        parts.append(f"<h2 id=\"{html.escape(s.anchor)}\">{html.escape(s.title)}</h2>")
        parts += [_block_html(k, b) for k, b in s.blocks]
        if s.verdict:
            parts.append(f"<p class=\"verdict\"><strong>Verdict.</strong> {html.escape(s.verdict)}</p>")
    parts.append("</body></html>")
    return "\n".join(parts)


def write_page(out_dir: Path, title: str, sections: list[Section], *, meta=()) -> Path:
    """Write ``index.html``; check that every linked file exists first.

    Raises
    ------
    FileNotFoundError
        If a section links to a file that was not written.
    """
    out_dir = Path(out_dir)
    missing = [f for s in sections for f in s.files() if not (out_dir / f).is_file()]
    if missing:
        raise FileNotFoundError(f"expected every linked file in {out_dir}, got missing {missing}")
    path = out_dir / "index.html"
    path.write_text(render_page(title, sections, meta=list(meta)), encoding="utf-8")
    return path



class _LinkParser(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.links = []

    def handle_starttag(self, tag, attrs):
        self.links += [v for k, v in attrs if k in ("src", "href") and v and not v.startswith("#")]


def linked_files(page: Path) -> list[str] | None:
    """Relative file links of a page this module wrote, or None if ``page`` is not one."""
    page = Path(page)
    if not page.is_file():
        return None
    text = page.read_text(encoding="utf-8", errors="replace")
    if f'content="{GENERATOR}"' not in text:
        return None
    parser = _LinkParser()
    parser.feed(text)
    return [v for v in parser.links if "/" not in v and "\\" not in v and ":" not in v]
