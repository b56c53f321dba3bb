"""Table API / SQL fixtures (fixtures/table/*/): converted programs give real Flink's records.

Each fixture is a PyFlink 2.3 program of ours with what Flink printed when it ran
(``expected_stdout.txt``, raw, recorded by ``tests/flink_reference.py``) and the files its
sinks wrote (``expected_files/``).

- Every fixture's conversion matches its snapshot ``converted.py``, parses, leaves no Flink
  import without a TODO beside it, and converting it again changes nothing.
- A fixture whose conversion has no TODO runs on a local Spark session and prints the same
  records as Flink (``table_output``: Flink's tableau boxes and print-connector rows against
  Spark's ``show()``; in streaming mode Flink prints the changelog of an updating table, which
  is folded into its final rows before the comparison), and its file sinks hold the same
  lines.
- Fixtures still converted with TODOs are counted: ``test_fixtures_converted_without_todo``
  fails when fewer convert than the last count, and lists them.

Refresh snapshots after an intended change with
``pytest tests/test_table_fixtures.py --snapshot-update`` and review the diff.
"""

from __future__ import annotations

import ast
import contextlib
import io
import runpy
import sys
from collections import Counter
from pathlib import Path

import pytest

from flink2spark.transpiler.engine import convert_source

ROOT = Path(__file__).resolve().parent.parent / "fixtures" / "table"
FIXTURES = sorted(p for p in ROOT.iterdir() if (p / "input.py").is_file()) if ROOT.is_dir() else []
# how many fixtures convert with no TODO: raise it when more do (it may not go down)
CONVERTED_WITHOUT_TODO = 27


def _ids(p: Path) -> str:
    return p.name


def _convert(fixture: Path):
    return convert_source((fixture / "input.py").read_text(), str(fixture / "input.py"))


def _todo_free(fixture: Path) -> bool:
    converted = fixture / "converted.py"
    return converted.is_file() and "TODO(flink2spark)" not in converted.read_text()


RUNNABLE = [p for p in FIXTURES if _todo_free(p)]


@pytest.mark.parametrize("fixture", FIXTURES, ids=_ids)
def test_conversion_snapshot(fixture: Path, snapshot):
    result = _convert(fixture)
    assert result.output is not None, result.markers
    ast.parse(result.output)
    # a Flink import left in the output carries its TODO on the line above
    lines = result.output.splitlines()
    for i, line in enumerate(lines):
        if line.startswith(("from pyflink", "import pyflink")):
            assert i > 0 and lines[i - 1].startswith("# TODO(flink2spark)"), line
    snapshot.snapshot_dir = fixture
    snapshot.assert_match(result.output, "converted.py")
    assert convert_source(result.output, "converted.py").output == result.output


def test_fixtures_converted_without_todo():
    assert len(FIXTURES) >= len(RUNNABLE)
    assert len(RUNNABLE) >= CONVERTED_WITHOUT_TODO, f"converted without TODO: {[p.name for p in RUNNABLE]}"


@pytest.fixture
def clean_catalog(spark):
    """Tables and views a program declared are dropped after it (one Spark session runs all)."""
    yield
    for table in spark.catalog.listTables():
        if table.isTemporary:
            spark.catalog.dropTempView(table.name)
        else:
            spark.sql(f"DROP TABLE IF EXISTS `{table.name}`")


@pytest.mark.parametrize("fixture", RUNNABLE, ids=_ids)
def test_converted_program_gives_flinks_records(fixture: Path, spark, tmp_path, clean_catalog):
    from table_output import flink_records, spark_records

    converted = fixture / "converted.py"
    stdout = io.StringIO()
    argv = sys.argv
    sys.argv = [str(converted), str(tmp_path)]
    try:
        with contextlib.redirect_stdout(stdout):
            runpy.run_path(str(converted), run_name="__main__")
    finally:
        sys.argv = argv
    got = spark_records(stdout.getvalue())
    want = flink_records((fixture / "expected_stdout.txt").read_text())
    assert got == want, f"missing: {sorted((want - got).elements())}; extra: {sorted((got - want).elements())}"
    expected_files = fixture / "expected_files"
    if expected_files.is_dir():
        assert _lines_by_folder(tmp_path) == _lines_by_folder(expected_files)


def _lines_by_folder(root: Path) -> dict[str, Counter]:
    """The lines of the files under ``root``, per folder: Flink and Spark name and split their
    part files differently. Spark's ``_SUCCESS`` and hidden ``.crc`` files are not data."""
    out: dict[str, Counter] = {}
    for path in sorted(p for p in root.rglob("*") if p.is_file() and not p.name.startswith((".", "_"))):
        out.setdefault(str(path.parent.relative_to(root)), Counter()).update(path.read_text().splitlines())
    return out
