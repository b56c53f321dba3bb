"""``flink2spark check``: Flink imports (F2S900) and leftover TODO markers (F2S901)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from flink2spark.cli import app
from flink2spark.transpiler.check import check_bytes, check_source

runner = CliRunner()

FLINK = """\
\"\"\"A DataSet job.\"\"\"
import os
from flink.plan.Environment import get_environment
from flink.functions.MapFunction import MapFunction


def main():
    import flink.plan.Constants as C, json
    env = get_environment()
    env.execute(local=True)
"""

CONVERTED_WITH_TODOS = """\
from pyspark.sql import SparkSession

spark = SparkSession.builder.getOrCreate()
data = spark.sparkContext.parallelize([1, 2])
# TODO(flink2spark): F2S100 DataSet.first has no conversion
first = data.first()
data.foreach(print)  # TODO(flink2spark): F2S102 collector used other than collector.collect(value)
# NOTE(flink2spark): F2S105 parallelism setting dropped; Spark sizes partitions itself
"""

CLEAN = """\
from pyspark.sql import SparkSession
from . import flink  # a relative import of a local module is not Flink
import flinkish
# TODO: not one of ours
s = "# TODO(flink2spark): F2S100 inside a string is not a comment"
"""


def positions(markers, code):
    return [(m.line, m.col) for m in markers if m.code == code]


def test_finds_flink_imports_with_positions():
    found = check_source(FLINK, "job.py")
    assert positions(found, "F2S900") == [(3, 1), (4, 1), (8, 5)]
    messages = [m.message for m in found]
    assert "Flink import: flink.plan.Environment (DataSet API)" in messages
    assert "Flink import: flink.functions.MapFunction (DataSet API)" in messages
    assert "Flink import: flink.plan.Constants (DataSet API)" in messages
    assert all(m.severity == "todo" for m in found)


@pytest.mark.parametrize(
    "source, generation",
    [
        ("from pyflink.datastream import StreamExecutionEnvironment\n", "PyFlink API"),
        ("import pyflink\n", "PyFlink API"),
        ("from org.apache.flink.streaming.api.functions.source import SourceFunction\n", "Jython streaming API"),
        ("from flink import plan\n", "DataSet API"),
    ],
)
def test_every_generation_is_found(source, generation):
    (marker,) = check_source(source, "f.py")
    assert (marker.line, marker.col, marker.code) == (1, 1, "F2S900")
    assert generation in marker.message


def test_finds_todo_markers_with_original_code_and_text():
    found = check_source(CONVERTED_WITH_TODOS, "out.py")
    assert positions(found, "F2S901") == [(5, 1), (7, 22)]
    assert found[0].message == "unresolved TODO F2S100: DataSet.first has no conversion"
    assert "F2S102" in found[1].message and "collector.collect(value)" in found[1].message
    assert not positions(found, "F2S900")  # NOTE comments are not findings


def test_files_without_flink_text_are_not_parsed():
    """No Flink import nor marker text: nothing to find, whatever the file's shape."""
    assert check_source("x = 1\nif x\n    pass\n", "bad.py") == []
    assert check_source("TOTAL = " + " + ".join(["1"] * 400) + "\n", "sum.py") == []


def test_compile_time_errors_are_syntax_errors_at_their_position():
    (bad,) = check_source("import pyflink\n\nclass A:\n    yield 1\n", "bad.py")
    assert (bad.code, bad.line, bad.col) == ("F2S001", 4, 5)
    assert "'yield' outside function" in bad.message


def test_clean_file_has_no_findings():
    assert check_source(CLEAN, "clean.py") == []
    assert check_bytes(b"", "empty.py") == []


def test_unparseable_files_give_one_error():
    (syntax,) = check_source("import pyflink\nx = 1\nif x\n    pass\n", "bad.py")
    assert (syntax.code, syntax.severity, syntax.line) == ("F2S001", "error", 3)
    (py2,) = check_source('import flink\nprint "hi"\n', "old.py")
    assert py2.code == "F2S002" and "Python 2" in py2.message
    (binary,) = check_bytes(b"\x00\x01", "bin.py")
    assert binary.code == "F2S003"


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_cli_findings_exit_1(tmp_path):
    job = write(tmp_path / "proj" / "job.py", FLINK)
    out = write(tmp_path / "proj" / "sub" / "out.py", CONVERTED_WITH_TODOS)
    write(tmp_path / "proj" / "clean.py", CLEAN)
    result = runner.invoke(app, ["check", str(tmp_path / "proj")])
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines == [
        f"{job}:3:1: F2S900 Flink import: flink.plan.Environment (DataSet API)",
        f"{job}:4:1: F2S900 Flink import: flink.functions.MapFunction (DataSet API)",
        f"{job}:8:5: F2S900 Flink import: flink.plan.Constants (DataSet API)",
        f"{out}:5:1: F2S901 unresolved TODO F2S100: DataSet.first has no conversion",
        f"{out}:7:22: F2S901 unresolved TODO F2S102: collector used other than collector.collect(value)",
    ]
    assert "5 finding(s) in 2 of 3 file(s)" in result.stderr
    assert runner.invoke(app, ["check", "--quiet", str(job)]).stderr == ""


def test_cli_clean_exit_0(tmp_path):
    write(tmp_path / "p" / "clean.py", CLEAN)
    write(tmp_path / "p" / "__init__.py", "")
    result = runner.invoke(app, ["check", str(tmp_path / "p"), str(tmp_path / "p" / "__init__.py")])
    assert result.exit_code == 0
    assert result.stdout == ""


def test_cli_bad_file_exit_2(tmp_path):
    write(tmp_path / "job.py", FLINK)
    bad = write(tmp_path / "bad.py", "import pyflink\ndef f(:\n")
    result = runner.invoke(app, ["check", str(tmp_path)])
    assert result.exit_code == 2
    assert f"{bad}:2:7: error: F2S001 " in result.stderr
    assert "F2S900" in result.stdout  # the other file is still checked
