"""``flink2spark assess``: counts per file and in total, the estimate, nothing written, the formats.

The expected numbers come from reading the rules, not from a run:

* ``ds_job.py`` (DataSet): ``get_environment`` (dataset.environment), ``from_elements``,
  ``flat_map`` (dataset.simple_ops), ``group_by``, ``sum`` (dataset.aggregate), ``output``,
  ``execute`` are exact rules: 7; ``set_parallelism(4)`` is dataset.env_settings, approximate,
  and writes NOTE F2S105 (a parallelism other than 1). 1 NOTE x 5 min = 5 min.
* ``pf_job.py`` (PyFlink): ``get_execution_environment`` (exact, NOTE F2S205: streams become
  RDDs, a collection of lists has no DataFrame schema), ``from_collection``, ``map`` (pyflink.simple_ops), ``print``: 4 exact rules;
  ``result = env.execute(...)`` uses the JobExecutionResult: pyflink.execute writes TODO F2S206
  and converts nothing. 1 NOTE x 5 + 1 TODO (F2S2xx) x 20 = 25 min.
* ``legacy_jython.py``: two ``org.apache.flink`` imports, a generation not converted: TODO
  F2S801 at each, 2 x 60 = 120 min.
* ``util.py``: no Flink import: generation none, nothing counted.
* ``broken.py``: a syntax error at line 2, column 7: an error file, 15 min.
* ``pkg/__init__.py``: empty, found while walking: skipped, as ``convert`` does.
"""

from __future__ import annotations

import json
import os
import shutil
import struct
import subprocess
import zlib
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import pytest
from typer.testing import CliRunner

from flink2spark.cli import app
from flink2spark.transpiler import assess as A
from flink2spark.transpiler import markers as M

DS_JOB = (
    "from flink.plan.Environment import get_environment\n"
    "\n"
    "env = get_environment()\n"
    'data = env.from_elements("a b", "b c")\n'
    "data.flat_map(lambda line, c: [(w, 1) for w in line.split()]).group_by(0).sum(1).output()\n"
    "env.set_parallelism(4)\n"
    "env.execute(local=True)\n"
)
PF_JOB = (
    "from pyflink.datastream import StreamExecutionEnvironment\n"
    "\n"
    "env = StreamExecutionEnvironment.get_execution_environment()\n"
    "env.from_collection([[1], [2], [3]]).map(lambda x: x[0] * 2).print()\n"
    'result = env.execute("job")\n'
)
JYTHON = (
    "from org.apache.flink.streaming.api.functions.source import SourceFunction\n"
    "from org.apache.flink.api.common.functions import MapFunction\n"
)
PLAIN = "def add(a, b):\n    return a + b\n"
BROKEN = "from pyflink.datastream import StreamExecutionEnvironment\ndef f(:\n    pass\n"

# file -> (generation, exact, approximate, notes, todos, minutes); None: a file in error
EXPECTED = {
    "broken.py": ("error", None, None, None, None, 15),
    "ds_job.py": ("dataset", 7, 1, 1, 0, 5),
    "legacy_jython.py": ("jython", 0, 0, 0, 2, 120),
    "pf_job.py": ("pyflink", 4, 0, 1, 1, 25),
    "util.py": ("none", 0, 0, 0, 0, 0),
}
TOTAL_MINUTES = 15 + 5 + 120 + 25  # 165 min, 2.8 h

runner = CliRunner()


def run(*args):
    return runner.invoke(app, [str(a) for a in args], catch_exceptions=False)


@pytest.fixture
def jobs(tmp_path: Path) -> Path:
    root = tmp_path / "jobs"
    (root / "pkg").mkdir(parents=True)
    for name, text in [
        ("ds_job.py", DS_JOB), ("pf_job.py", PF_JOB), ("legacy_jython.py", JYTHON),
        ("util.py", PLAIN), ("broken.py", BROKEN), ("pkg/__init__.py", ""),
    ]:
        (root / name).write_text(text, "utf-8")
    return root


def snapshot(root: Path) -> dict[str, tuple]:
    """Every entry under ``root`` (folders too): bytes, mode and mtime of files."""
    state = {}
    for path in sorted(root.rglob("*")):
        st = path.lstat()
        state[str(path.relative_to(root))] = (path.read_bytes() if path.is_file() else None, st.st_mode, st.st_mtime_ns)
    return state


# --------------------------------------------------------------------------- text


def test_text_table_per_file_and_totals(jobs: Path):
    result = run("assess", jobs)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["file", "generation", "exact", "approx", "notes", "todos", "est.", "min"]
    rows = {Path(line.split()[0]).name: line.split()[1:] for line in lines[1:6]}
    assert list(rows) == sorted(EXPECTED)  # the walk's order; the empty __init__.py is not listed
    for name, (generation, *counts, minutes) in EXPECTED.items():
        assert rows[name] == [generation, *("-" if c is None else str(c) for c in counts), str(minutes)], name
    text = result.stdout
    assert "files: 5 (dataset 1, jython 1, pyflink 1, none 1; 1 could not be read or parsed)" in text
    assert "constructs converted by rules: 12 (11 exact, 1 approximate)" in text
    assert "NOTE markers to review: 2" in text
    assert "TODO markers to port by hand: 3" in text
    assert "estimated manual work: 165 min (2.8 h)" in text
    # the estimate, line by line: count x minutes = total
    assert [line.split()[:7] for line in lines if line.startswith("    ")] == [
        ["2", "NOTE", "x", "5", "min", "=", "10"],
        ["1", "error", "file", "x", "15", "min", "="],
        ["1", "TODO", "x", "20", "min", "=", "20"],
        ["2", "TODO", "x", "60", "min", "=", "120"],
    ]
    # the constructs: rules that matched (approximate ones said so) and what is left as TODO
    assert "  rules: pyflink.environment, pyflink.from_collection, pyflink.print, pyflink.simple_ops" in text
    assert "dataset.env_settings (approximate)" in text and "dataset.execute," in text
    assert "  5:10: TODO F2S206 execute() result used" in text
    assert "  2:7: error F2S001 syntax error" in text
    assert result.stderr == ""


def test_nothing_is_written(jobs: Path):
    before = snapshot(jobs)
    for fmt in ("text", "json", "html"):
        assert run("assess", jobs, "--output-format", fmt).exit_code == 0
    assert run("assess", jobs / "ds_job.py", jobs / "pf_job.py").exit_code == 0
    assert snapshot(jobs) == before


def test_out_writes_the_report_only(jobs: Path, tmp_path: Path):
    before = snapshot(jobs)
    out = tmp_path / "reports" / "assessment.json"
    result = run("assess", jobs, "--output-format", "json", "--out", out)
    assert result.exit_code == 0 and result.stdout == ""
    assert json.loads(out.read_text("utf-8"))["totals"]["minutes"] == TOTAL_MINUTES
    assert snapshot(jobs) == before


def test_usage_errors_exit_2(jobs: Path, tmp_path: Path):
    assert run("assess", jobs, "--output-format", "xml").exit_code == 2
    assert run("assess", tmp_path / "missing").exit_code == 2
    (tmp_path / "empty").mkdir()
    result = run("assess", tmp_path / "empty")
    assert result.exit_code == 2 and "no Python files found" in result.stderr
    blocked = tmp_path / "file"
    blocked.write_text("x")
    result = run("assess", jobs, "--out", blocked / "report.html")  # its folder is a file
    assert result.exit_code == 2 and "could not write the report" in result.stderr


def test_error_files_do_not_fail_the_run(tmp_path: Path):
    bad = tmp_path / "bad.py"
    bad.write_bytes(b"import pyflink\n\xff\xfe\n")
    result = run("assess", bad, "--output-format", "json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["totals"]["error"] == 1 and data["files"][0]["status"] == "error"
    assert data["files"][0]["markers"][0]["code"] == M.NOT_TEXT


def test_file_names_are_escaped(tmp_path: Path):
    """A name with HTML characters stays text in the page; one with a newline is quoted in text."""
    (tmp_path / "a<b>&'.py").write_text(DS_JOB, "utf-8")
    (tmp_path / "x\ny.py").write_text(PLAIN, "utf-8")
    page = run("assess", tmp_path, "--output-format", "html").stdout
    assert "a&lt;b&gt;&amp;&#x27;.py" in page and "<b>" not in page
    text = run("assess", tmp_path).stdout
    assert "'" + str(tmp_path) + "/x\\ny.py'" in text and "x\ny.py" not in text


def test_converter_crash_is_an_error_line(jobs: Path, monkeypatch):
    from flink2spark.transpiler import engine

    def crash(data, path, shadowed=frozenset()):
        raise RuntimeError("boom")

    monkeypatch.setattr(engine, "convert_bytes", crash)
    result = run("assess", jobs / "ds_job.py", "--output-format", "json")
    assert result.exit_code == 0
    entry = json.loads(result.stdout)["files"][0]
    assert entry["status"] == "error" and entry["markers"][0]["code"] == M.ENGINE_ERROR and entry["minutes"] == 15


def test_a_file_in_error_counts_once():
    from flink2spark.transpiler.result import ConversionResult, Marker

    errors = [Marker(1, 1, M.SYNTAX_ERROR, "error", "a"), Marker(2, 1, M.IO_ERROR, "error", "b")]
    assessment = A.assess([ConversionResult("x.py", "", None, status="error", markers=errors)])
    assert assessment.totals()["minutes"] == 15 and assessment.totals()["error"] == 1
    assert [m["minutes"] for m in assessment.to_json()["files"][0]["markers"]] == [15, 0]


# --------------------------------------------------------------------------- json


def test_json_schema_and_numbers(jobs: Path):
    result = run("assess", jobs, "--output-format", "json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert set(data) == {"version", "files", "by_generation", "totals", "estimate", "weights"}
    assert data["version"] == 1
    file_keys = {"path", "generation", "status", "rules", "exact", "approximate", "notes", "todos", "minutes", "markers"}
    by_name = {}
    for entry in data["files"]:
        assert set(entry) == file_keys
        assert all(set(m) == {"line", "col", "code", "severity", "message", "minutes"} for m in entry["markers"])
        assert sum(m["minutes"] for m in entry["markers"]) == entry["minutes"]
        by_name[Path(entry["path"]).name] = entry
    for name, (generation, exact, approximate, notes, todos, minutes) in EXPECTED.items():
        entry = by_name[name]
        assert entry["minutes"] == minutes
        if generation == "error":
            assert entry["status"] == "error" and entry["generation"] is None
            assert [m["code"] for m in entry["markers"]] == [M.SYNTAX_ERROR]
            assert (entry["markers"][0]["line"], entry["markers"][0]["col"]) == (2, 7)
            continue
        assert entry["generation"] == generation
        assert [entry[k] for k in ("exact", "approximate", "notes", "todos")] == [exact, approximate, notes, todos]
    assert by_name["ds_job.py"]["rules"] == {
        "dataset.aggregate": 1, "dataset.env_settings": 1, "dataset.environment": 1, "dataset.execute": 1,
        "dataset.from_elements": 1, "dataset.group_by": 1, "dataset.output": 1, "dataset.simple_ops": 1,
    }
    assert [m["code"] for m in by_name["pf_job.py"]["markers"]] == [M.PF_RDD, M.PF_EXEC_RESULT]
    assert [m["code"] for m in by_name["legacy_jython.py"]["markers"]] == [M.JYTHON_UNSUPPORTED] * 2
    assert data["totals"] == {"files": 5, "error": 1, "exact": 11, "approximate": 1, "notes": 2, "todos": 3, "minutes": TOTAL_MINUTES}
    assert data["by_generation"] == {
        "dataset": {"files": 1, "exact": 7, "approximate": 1, "notes": 1, "todos": 0, "minutes": 5},
        "jython": {"files": 1, "exact": 0, "approximate": 0, "notes": 0, "todos": 2, "minutes": 120},
        "pyflink": {"files": 1, "exact": 4, "approximate": 0, "notes": 1, "todos": 1, "minutes": 25},
        "none": {"files": 1, "exact": 0, "approximate": 0, "notes": 0, "todos": 0, "minutes": 0},
    }
    assert [(e["severity"], e["prefix"], e["count"], e["minutes"], e["total_minutes"]) for e in data["estimate"]] == [
        ("note", "F2S", 2, 5, 10), ("error", "F2S", 1, 15, 15), ("todo", "F2S2", 1, 20, 20), ("todo", "F2S8", 2, 60, 120),
    ]
    assert sum(e["total_minutes"] for e in data["estimate"]) == TOTAL_MINUTES
    assert data["weights"] == [
        {"severity": w.severity, "prefix": w.prefix, "family": w.family, "minutes": w.minutes} for w in A.WEIGHTS
    ]


def test_weights_table_covers_every_todo_code():
    """Every TODO the converter can write falls in a family of its own (not the fallback row),
    the longest prefix wins, and there is one row for NOTE and one for files in error."""
    for code in M.CODES.values():
        if code.severity == "todo" and not code.code.startswith("F2S9"):  # F2S9xx: check findings
            assert A.weight("todo", code.code).prefix != "F2S", code.code
    assert A.weight("todo", "F2S220").minutes == 45 and A.weight("todo", "F2S230").minutes == 60
    assert A.weight("todo", "F2S200").minutes == 20 and A.weight("todo", "F2S901").prefix == "F2S"
    assert A.weight("note", "F2S205").minutes == 5 and A.weight("error", "F2S001").minutes == 15
    keys = [(w.severity, w.prefix) for w in A.WEIGHTS]
    assert len(keys) == len(set(keys))


def test_readme_states_the_weights():
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text("utf-8")
    section = readme.split("\n### assess\n", 1)[1].split("\n### ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ") and "`F2S" in line]
    assert rows == [f"| {w.label} | `{w.prefix}` | {w.minutes} | {w.family} |" for w in A.WEIGHTS]


def test_help_has_an_example():
    result = run("assess", "--help")
    assert result.exit_code == 0
    assert "flink2spark assess jobs/ --output-format html --out assessment.html" in " ".join(result.stdout.split())


# --------------------------------------------------------------------------- html in Chromium

CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


def chromium() -> str:
    """The Chromium binary; CI must have it (.ci/run installs it), a local run may skip."""
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is not installed (CI=true: .ci/run installs it)")
        pytest.skip("chromium is not installed (apt-get install chromium); required when CI is set")
    return found


def run_chromium(page: Path, profile: Path, *args: str) -> subprocess.CompletedProcess:
    cmd = [chromium(), *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *args, page.as_uri()]
    return subprocess.run(cmd, capture_output=True, timeout=120, check=True)


class Cells(HTMLParser):
    """The text of each table cell by table id, each SVG text element, each summary card."""

    def __init__(self):
        super().__init__()
        self.tables: dict[str, list[list[str]]] = {}
        self.svg_texts: list[str] = []
        self.cards: list[str] = []
        self._table = self._cell = self._text = self._card = None
        self._depth = 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table":
            self._table = self.tables.setdefault(attrs.get("id", ""), [])
        elif tag == "tr" and self._table is not None:
            self._table.append([])
        elif tag in ("td", "th") and self._table is not None:
            self._cell = []
        elif tag == "text":
            self._text = []
        elif tag == "div" and attrs.get("class", "").startswith("card"):
            self._card, self._depth = [], 0
        if tag == "div" and self._card is not None:
            self._depth += 1

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self._table[-1].append("".join(self._cell).strip())
            self._cell = None
        elif tag == "table":
            self._table = None
        elif tag == "text" and self._text is not None:
            self.svg_texts.append("".join(self._text))
            self._text = None
        elif tag == "div" and self._card is not None:
            self._depth -= 1
            if self._depth == 0:
                self.cards.append(" ".join("".join(self._card).split()))
                self._card = None

    def handle_data(self, data):
        for part in (self._cell, self._text, self._card):
            if part is not None:
                part.append(data if part is not self._card else data + " ")


def png_colours(data: bytes) -> tuple[int, int, Counter]:
    """Width, height and the pixels per RGB colour of an 8-bit RGB/RGBA non-interlaced PNG (as Chromium writes)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, chunks = 8, {}
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos : pos + 8])
        chunks.setdefault(kind, []).append(data[pos + 8 : pos + 8 + length])
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", chunks[b"IHDR"][0])
    assert depth == 8 and colour in (2, 6) and interlace == 0
    bpp = 3 if colour == 2 else 4
    raw = zlib.decompress(b"".join(chunks[b"IDAT"]))
    stride, prev, colours = width * bpp, bytearray(width * bpp), Counter()
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for i in range(stride) if kind else ():
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], (prev[i - bpp] if i >= bpp else 0)
            if kind == 1:
                line[i] = (line[i] + a) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + b) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 0xFF
            else:  # Paeth
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        colours.update(bytes(line[j : j + 3]) for j in range(0, stride, bpp))
        prev = line
    return width, height, colours


@pytest.fixture
def rendered(jobs: Path, tmp_path: Path):
    page = tmp_path / "report" / "assessment.html"
    result = run("assess", jobs, "--output-format", "html", "--out", page)
    assert result.exit_code == 0, result.output
    dom = run_chromium(page, tmp_path / "profile-dom", "--dump-dom").stdout.decode("utf-8")
    shot = tmp_path / "shot.png"
    run_chromium(page, tmp_path / "profile-shot", f"--screenshot={shot}", "--window-size=1200,900")
    return page, dom, shot


def test_html_report_in_chromium(rendered):
    page, dom, shot = rendered
    source = page.read_text("utf-8")
    assert "<script" not in source and "<link" not in source and " src=" not in source  # self-contained

    cells = Cells()
    cells.feed(dom)
    files = cells.tables["files"]
    assert files[0] == ["file", "generation", "exact", "approx", "notes", "todos", "est. min"]
    shown = {Path(row[0]).name: row[1:] for row in files[1:]}
    assert list(shown) == sorted(EXPECTED)
    for name, (generation, *counts, minutes) in EXPECTED.items():
        assert shown[name] == [generation, *("-" if c is None else str(c) for c in counts), str(minutes)], name
    assert cells.cards == [
        "5 Python files (3 with Flink code)",
        "12 constructs converted (11 exact, 1 approximate)",
        "2 NOTE markers to review",
        "3 TODO markers to port by hand",
        "1 file(s) that could not be read or parsed",
        "165 min (2.8 h) estimated manual work",
    ]
    assert cells.svg_texts == [
        "dataset", "1 file(s): 7 exact, 1 approx., 0 TODO, 1 NOTE, 5 min",
        "jython", "1 file(s): 0 exact, 0 approx., 2 TODO, 0 NOTE, 120 min",
        "pyflink", "1 file(s): 4 exact, 0 approx., 1 TODO, 1 NOTE, 25 min",
        "none", "1 file(s): 0 exact, 0 approx., 0 TODO, 0 NOTE, 0 min",
    ]
    assert [row[:4] for row in cells.tables["estimate"][1:]] == [
        ["2", "NOTE", "5 min", "10 min"], ["1", "error file", "15 min", "15 min"],
        ["1", "TODO", "20 min", "20 min"], ["2", "TODO", "60 min", "120 min"],
    ]
    pf_markers = next(rows for table_id, rows in cells.tables.items() if table_id.startswith("markers-") and table_id.endswith("pf_job.py"))
    assert [row[:3] for row in pf_markers[1:]] == [["3:7", "NOTE", "F2S205"], ["5:10", "TODO", "F2S206"]]

    data = shot.read_bytes()
    assert len(data) > 20_000  # a blank 1200x900 page compresses to a few kilobytes
    width, height, colours = png_colours(data)
    assert (width, height) == (1200, 900)
    assert len(colours) > 50  # text antialiasing, cards, bars
    # the chart's bars are drawn: far more pixels of the exact, approximate and TODO colours
    # than their 12x12 squares in the legend
    for hex_colour in ("2e7d32", "1f6fbf", "c62828"):
        assert colours[bytes.fromhex(hex_colour)] > 1000, hex_colour
