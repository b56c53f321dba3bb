"""The HTML page of ``flink2spark assess --output-format html``: one self-contained page.

A summary, the estimate with its weights, a bar chart of the constructs per API generation
(inline SVG), a table of the files and one table per file. No JavaScript, no external asset.
"""

from __future__ import annotations

from html import escape

from flink2spark.transpiler import assess as A

# Colours of the three kinds of constructs in the chart and the legend.
COLOURS = {"exact": "#2e7d32", "approximate": "#1f6fbf", "todos": "#c62828"}
LABELS = {"exact": "exact rule", "approximate": "approximate rule", "todos": "TODO"}

STYLE = """
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1d2430;
       margin: 0; background: #f4f6f9; }
main { max-width: 1100px; margin: 0 auto; padding: 24px 32px 48px; }
h1 { font-size: 26px; margin: 0 0 4px; }
h2 { font-size: 19px; margin: 32px 0 10px; border-bottom: 2px solid #d5dbe4; padding-bottom: 4px; }
h3 { font-size: 15px; margin: 22px 0 6px; font-family: ui-monospace, Menlo, Consolas, monospace; }
.sub { color: #5a6577; margin: 0 0 18px; }
.cards { display: flex; flex-wrap: wrap; gap: 12px; }
.card { background: #fff; border: 1px solid #d5dbe4; border-radius: 8px; padding: 12px 16px; min-width: 150px; }
.card .value { font-size: 26px; font-weight: 700; }
.card .label { color: #5a6577; font-size: 13px; }
.card.work { border-color: #1f6fbf; border-width: 2px; }
.card.todo .value { color: #c62828; }
.card.error .value { color: #8a4b00; }
table { border-collapse: collapse; background: #fff; width: 100%; margin: 6px 0; }
th, td { border: 1px solid #d5dbe4; padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: #e9edf3; font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
td.path { font-family: ui-monospace, Menlo, Consolas, monospace; word-break: break-all; }
tr.error td { background: #fff3e0; }
.sev-todo { color: #c62828; font-weight: 600; }
.sev-note { color: #1f6fbf; font-weight: 600; }
.sev-error { color: #8a4b00; font-weight: 600; }
.legend span { display: inline-block; margin-right: 16px; }
.legend i { display: inline-block; width: 12px; height: 12px; margin-right: 5px; vertical-align: -1px; }
.chart { background: #fff; border: 1px solid #d5dbe4; border-radius: 8px; padding: 10px; }
.muted { color: #5a6577; }
"""


def _e(text: object) -> str:
    return escape(str(text), quote=True)


def _cells(values: list[str], numeric: set[int], tag: str = "td") -> str:
    return "".join(f'<{tag} class="num">{_e(v)}</{tag}>' if i in numeric else f"<{tag}>{_e(v)}</{tag}>" for i, v in enumerate(values))


def _table(table_id: str, headers: list[str], rows: list[list[str]], numeric: set[int], row_classes=None) -> str:
    head = _cells(headers, numeric, "th")
    body = []
    for i, row in enumerate(rows):
        css = row_classes[i] if row_classes else ""
        body.append(f'<tr{f" class={chr(34)}{css}{chr(34)}" if css else ""}>{_cells(row, numeric)}</tr>')
    return f'<table id="{_e(table_id)}"><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table>'


def _card(value: object, label: str, css: str = "") -> str:
    return f'<div class="card {css}"><div class="value">{_e(value)}</div><div class="label">{_e(label)}</div></div>'


def _summary(assessment: A.Assessment) -> str:
    t = assessment.totals()
    flink = t["files"] - t["error"] - assessment.generation_counts("none")["files"]
    return '<div class="cards" id="summary">' + "".join(
        [
            _card(t["files"], f"Python files ({flink} with Flink code)"),
            _card(t["exact"] + t["approximate"], f"constructs converted ({t['exact']} exact, {t['approximate']} approximate)"),
            _card(t["notes"], "NOTE markers to review"),
            _card(t["todos"], "TODO markers to port by hand", "todo"),
            _card(t["error"], "file(s) that could not be read or parsed", "error"),
            _card(A.hours(t["minutes"]), "estimated manual work", "work"),
        ]
    ) + "</div>"


def _chart(assessment: A.Assessment) -> str:
    """A horizontal stacked bar per API generation: exact, approximate and TODO constructs."""
    kinds = list(COLOURS)
    rows = [(g, assessment.generation_counts(g)) for g in A.GENERATIONS]
    largest = max([sum(c[k] for k in kinds) for _, c in rows] + [1])
    label_w, bar_w, row_h, top, width = 90, 460, 38, 8, 1040
    height = top + row_h * len(rows) + 4
    parts = [f'<svg id="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="100%" role="img" '
             f'aria-label="constructs per API generation" font-family="system-ui, sans-serif" font-size="14">']
    for i, (generation, counts) in enumerate(rows):
        y = top + i * row_h
        parts.append(f'<text x="0" y="{y + 20}" font-weight="600">{_e(generation)}</text>')
        parts.append(f'<rect x="{label_w}" y="{y + 4}" width="{bar_w}" height="22" fill="#eef1f5"/>')
        x = float(label_w)
        for kind in kinds:
            length = bar_w * counts[kind] / largest
            if length:
                parts.append(
                    f'<rect class="bar-{kind}" x="{x:.1f}" y="{y + 4}" width="{length:.1f}" height="22" fill="{COLOURS[kind]}">'
                    f"<title>{_e(generation)}: {counts[kind]} {_e(LABELS[kind])}</title></rect>"
                )
            x += length
        caption = (
            f"{counts['files']} file(s): {counts['exact']} exact, {counts['approximate']} approx., "
            f"{counts['todos']} TODO, {counts['notes']} NOTE, {counts['minutes']} min"
        )
        parts.append(f'<text x="{label_w + bar_w + 10}" y="{y + 20}" fill="#1d2430">{_e(caption)}</text>')
    parts.append("</svg>")
    legend = "".join(f'<span><i style="background:{COLOURS[k]}"></i>{_e(LABELS[k])}</span>' for k in kinds)
    return f'<div class="chart">{"".join(parts)}<div class="legend">{legend}</div></div>'


def _estimate(assessment: A.Assessment) -> str:
    rows = [A.estimate_row(line) for line in assessment.estimate]
    rows = [[count, what, each, total, family] for count, what, _, each, _, total, family in rows]
    used = _table("estimate", ["count", "marker", "minutes each", "minutes", "family"], rows, {0, 2, 3}) if rows else "<p>Nothing to do by hand.</p>"
    weights = [[w.label, w.prefix, f"{w.minutes} min", w.family] for w in A.WEIGHTS]
    return (
        f"<p>Estimated manual work: <strong>{_e(A.hours(assessment.minutes))}</strong>, the sum of these lines:</p>"
        + used
        + '<p class="muted">The weights (<code>WEIGHTS</code> in <code>flink2spark/transpiler/assess.py</code>; '
        "a TODO takes the row with the longest prefix of its code):</p>"
        + _table("weights", ["marker", "code prefix", "minutes", "family"], weights, {2})
    )


def _files(assessment: A.Assessment) -> str:
    rows = A.file_rows(assessment)
    classes = ["error" if f.error else "" for f in assessment.files]
    return _table("files", A.FILE_HEADERS, rows, {2, 3, 4, 5, 6}, classes)


def _file_detail(f: A.FileAssessment, kinds: dict[str, str]) -> str:
    title = f'<h3>{_e(A.shown(f.path))} <span class="muted">({_e("error" if f.error else f.generation)})</span></h3>'
    parts = [title]
    if f.rules:
        rows = [[rule_id, kinds.get(rule_id, "approximate"), str(n)] for rule_id, n in f.rules.items()]
        parts.append(_table(f"rules-{f.path}", ["rule", "kind", "applications"], rows, {2}))
    if f.markers:
        body = "".join(
            f'<tr><td class="num">{m.line}:{m.col}</td><td class="sev-{_e(m.severity)}">{_e(m.severity.upper())}</td>'
            f"<td>{_e(m.code)}</td><td>{_e(m.message)}</td></tr>"
            for m in f.markers
        )
        parts.append(
            f'<table id="markers-{_e(f.path)}"><thead><tr><th class="num">line:col</th><th>marker</th><th>code</th>'
            f"<th>message</th></tr></thead><tbody>{body}</tbody></table>"
        )
    if not f.rules and not f.markers:
        parts.append('<p class="muted">No Flink construct.</p>')
    return "<section>" + "".join(parts) + "</section>"


def render_html(assessment: A.Assessment) -> str:
    kinds = A.rule_kinds()
    details = "".join(_file_detail(f, kinds) for f in assessment.files)
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8"><title>flink2spark assessment</title>'
        f"<style>{STYLE}</style></head><body><main>"
        "<h1>Flink to Spark migration assessment</h1>"
        '<p class="sub">Made by <code>flink2spark assess</code>: every file converted in memory, nothing written. '
        "Exact rules convert natively; approximate rules and NOTE markers need a review; TODO markers "
        "are constructs to port by hand.</p>"
        "<h2>Summary</h2>" + _summary(assessment)
        + "<h2>Constructs per API generation</h2>" + _chart(assessment)
        + "<h2>Estimate of the manual work</h2>" + _estimate(assessment)
        + "<h2>Files</h2>" + _files(assessment)
        + "<h2>Per file</h2>" + details
        + "</main></body></html>\n"
    )
