"""The CSS shared by hloscope's HTML views (tables, badges, decision logs, notes).

One `<style>` block scoped under `.hloscope`, inlined by each view so its HTML shows the
same in Jupyter, in an exported file and offline.
"""

CSS = """
.hloscope { font-family: -apple-system, BlinkMacSystemFont, "Segoe UI", Helvetica, Arial, sans-serif;
  font-size: 13px; color: #1f2328; }
.hloscope .hs-table { border-collapse: collapse; margin: 4px 0 8px 0; font-size: 12px; }
.hloscope .hs-table th { text-align: left; background: #f6f8fa; border-bottom: 1px solid #d0d7de;
  padding: 3px 8px; position: sticky; top: 0; }
.hloscope .hs-table td { padding: 2px 8px; border-bottom: 1px solid #eaeef2; vertical-align: top; }
.hloscope .hs-table td.num, .hloscope .hs-table th.num { text-align: right; font-variant-numeric: tabular-nums; }
.hloscope tr.changed td:first-child { border-left: 3px solid #1a7f37; }
.hloscope tr.unchanged { color: #6e7781; }
.hloscope tr.accepted td.action { color: #1a7f37; font-weight: 600; }
.hloscope tr.rejected { background: #fff5f5; }
.hloscope tr.rejected td.action { color: #cf222e; font-weight: 600; }
.hloscope .badge { display: inline-block; padding: 0 6px; border-radius: 8px; font-size: 11px;
  background: #eaeef2; color: #57606a; margin-left: 6px; }
.hloscope .badge.changed { background: #dafbe1; color: #1a7f37; }
.hloscope .badge.rejected { background: #ffebe9; color: #cf222e; }
.hloscope .hs-note { color: #9a6700; }
.hloscope .hs-doc { color: #3d444d; margin: 4px 0; white-space: pre-wrap; }
.hloscope .hs-scroll { overflow: auto; max-height: 70vh; border: 1px solid #eaeef2; border-radius: 4px; }
.hloscope h3 { font-size: 15px; margin: 6px 0; }
.hloscope h4 { font-size: 13px; margin: 10px 0 4px 0; }
"""


def style_block() -> str:
    return f"<style>{CSS}</style>"
