"""The report page's fixed parts: its stylesheet and the markup of a rule's docstring.

Kept apart from :mod:`traindoc.report.html` so that the page logic reads without a
screen of CSS in the way.
"""

from __future__ import annotations

import re

from .plotkit import esc

CSS = """
:root { --err:#c62828; --warn:#ef6c00; --info:#0277bd; --ok:#2e7d32; --mut:#5f6368; --line:#e0e0e0; }
* { box-sizing: border-box; }
body { font: 14px/1.5 -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
       color:#202124; margin:0; background:#fafafa; }
main { max-width: 1180px; margin: 0 auto; padding: 18px 24px 60px; }
h1 { font-size: 22px; margin: 6px 0 2px; } h1 small { color: var(--mut); font-weight: normal; font-size: 14px; }
h2 { font-size: 18px; margin: 30px 0 10px; padding-bottom: 4px; border-bottom: 1px solid var(--line); }
h3 { font-size: 15px; margin: 14px 0 4px; } .card h3 { margin-top: 0; }
nav { font-size: 13px; margin: 6px 0 14px; } nav a { margin-right: 14px; color: var(--info); text-decoration: none; }
table { border-collapse: collapse; width: 100%; }
td, th { text-align: left; vertical-align: top; padding: 3px 10px 3px 0; }
table.kv th { color: var(--mut); font-weight: normal; width: 150px; white-space: nowrap; }
table.grid { font-size: 13px; } table.grid th { border-bottom: 1px solid var(--line); color: var(--mut); font-weight: 600; }
table.grid td { border-bottom: 1px solid #f1f1f1; }
code, pre, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; }
pre { background: #f4f4f4; padding: 8px 10px; overflow-x: auto; white-space: pre-wrap; word-break: break-word; margin: 4px 0; }
.verdict { padding: 10px 14px; border-radius: 6px; margin: 12px 0; font-size: 15px; background: #fff; border-left: 5px solid var(--ok); }
.verdict.error { border-left-color: var(--err); } .verdict.warning { border-left-color: var(--warn); }
.card { background: #fff; border: 1px solid var(--line); border-left: 5px solid var(--info); border-radius: 6px;
        padding: 12px 16px; margin: 10px 0; }
.card.error { border-left-color: var(--err); } .card.warning { border-left-color: var(--warn); }
.sev { display: inline-block; padding: 0 7px; border-radius: 9px; color: #fff; font-size: 12px; font-weight: 600; }
.sev.error { background: var(--err); } .sev.warning { background: var(--warn); } .sev.info { background: var(--info); }
.code { color: var(--mut); font-size: 13px; margin-left: 6px; }
.conf { float: right; color: var(--mut); font-size: 13px; }
.bar { display: inline-block; width: 70px; height: 7px; background: #eee; border-radius: 4px; margin-left: 6px; vertical-align: middle; }
.bar i { display: block; height: 100%; border-radius: 4px; background: var(--info); }
.msg { margin: 4px 0 8px; font-size: 14.5px; }
.card table.kv th { width: 90px; }
details { margin-top: 6px; } summary { cursor: pointer; color: var(--info); font-size: 13px; }
.doc p { margin: 6px 0; } .doc b { color: #3c4043; }
.plot { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 8px 12px 10px; margin: 12px 0; }
.plot h3 { margin: 2px 0 0; }
.caption { color: var(--mut); font-size: 12.5px; margin: 2px 0; }
.note { color: var(--mut); font-style: italic; padding: 6px 0; }
.muted { color: var(--mut); }
footer { color: var(--mut); font-size: 12px; margin-top: 40px; }
"""

_SECTION = re.compile(r"^(What it detects|Why it happens|How to confirm|Example|How to fix):\s*")
_CODE = re.compile(r"``(.+?)``|`([^`]+)`")


def inline(text: str) -> str:
    """Escape ``text``, then render ``code`` spans (their content is escaped too)."""
    out, pos = [], 0
    for m in _CODE.finditer(text):
        out.append(esc(text[pos:m.start()]))
        out.append(f"<code>{esc(m.group(1) or m.group(2))}</code>")
        pos = m.end()
    out.append(esc(text[pos:]))
    return "".join(out)


def doc_html(doc: str) -> str:
    """A rule's docstring (four sections, paragraphs split by blank lines) as HTML."""
    paras = [" ".join(line.strip() for line in block.splitlines()) for block in re.split(r"\n\s*\n", doc.strip())]
    out = []
    for p in paras:
        m = _SECTION.match(p)
        if m:
            out.append(f"<p><b>{esc(m.group(1))}:</b> {inline(p[m.end():])}</p>")
        elif p:
            out.append(f"<p>{inline(p)}</p>")
    return "".join(out)
