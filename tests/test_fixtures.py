"""Every fixture program: its conversion matches the snapshot, and the converted program, run on
a real local Spark session, produces the expected results: the same RECORDS as Flink printed and
wrote (``tests/print_records.py``: Flink's Stringify lines and files against what Spark prints
and writes, Python's ``print(record)``, ``saveAsTextFile`` part files), never the same format.

Refresh snapshots after an intended change with ``pytest tests/test_fixtures.py --snapshot-update``
and review the diff.
"""

from __future__ import annotations

import contextlib
import io
import json
import runpy
import sys
from collections import Counter
from pathlib import Path

import pytest

from flink2spark.transpiler.engine import convert_source
from print_records import delimited_records, flink_dataset_records, spark_print_records

ROOT = Path(__file__).resolve().parent.parent / "fixtures"
# PyFlink fixtures join once the PyFlink rule set converts them (tests/test_flink_reference.py runs them on Flink)
FIXTURES = sorted(p for p in ROOT.glob("dataset/*") if (p / "input.py").is_file())


def _ids(p: Path) -> str:
    return f"{p.parent.name}/{p.name}"


@pytest.mark.parametrize("fixture", FIXTURES, ids=_ids)
def test_conversion_snapshot(fixture: Path, snapshot):
    source = (fixture / "input.py").read_text()
    result = convert_source(source, str(fixture / "input.py"))
    assert result.output is not None, result.markers
    assert result.status == "converted", [m.format("input.py") for m in result.markers if m.severity == "todo"]
    snapshot.snapshot_dir = fixture
    snapshot.assert_match(result.output, "converted.py")
    # idempotent: converting the converted program changes nothing
    assert convert_source(result.output, "converted.py").output == result.output


def _written_text(path: Path) -> str:
    """What a converted program wrote at ``path``: a file, or Spark's folder of part files (in order)."""
    if path.is_dir():
        return "".join(p.read_text() for p in sorted(path.glob("part-*")))
    return path.read_text()


def assert_same_records(flink_text: str, spark_text: str, ordered: bool, what: str = "stdout", sep: str | None = None) -> None:
    """The records of Flink's ``flink_text`` equal those of Spark's ``spark_text`` (as multisets,
    or as lists when ``ordered``); ``sep``: a write_csv file's field delimiter."""
    if sep is not None:
        want, got = delimited_records(flink_text, sep, spark=False), delimited_records(spark_text, sep, spark=True)
    else:
        want, got = flink_dataset_records(flink_text), spark_print_records(spark_text)
    if ordered:
        assert got == want, f"{what}: records differ"
    else:
        missing, extra = Counter(want) - Counter(got), Counter(got) - Counter(want)
        assert not missing and not extra, f"{what}: missing: {missing}; extra: {extra}"


@pytest.mark.parametrize("fixture", FIXTURES, ids=_ids)
def test_converted_program_runs_on_spark(fixture: Path, spark, tmp_path):
    converted = fixture / "converted.py"
    if not converted.exists():
        pytest.fail("no converted.py snapshot: run pytest --snapshot-update")
    meta = json.loads((fixture / "fixture.json").read_text())
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    stdout = io.StringIO()
    argv = sys.argv
    sys.argv = [str(converted), str(out_dir)]
    try:
        with contextlib.redirect_stdout(stdout):
            runpy.run_path(str(converted), run_name="__main__")
    finally:
        sys.argv = argv
    expected_stdout = fixture / "expected_stdout.txt"
    want = expected_stdout.read_text() if expected_stdout.exists() else ""
    assert_same_records(want, stdout.getvalue(), bool(meta.get("ordered")))
    expected_files = fixture / "expected_files"
    if expected_files.is_dir():
        for path in sorted(p for p in expected_files.rglob("*") if p.is_file()):
            written = out_dir / path.relative_to(expected_files)
            assert written.exists(), f"{written} was not written"
            sep = meta.get("csv_files", {}).get(path.name)  # write_csv files: their field delimiter
            assert_same_records(path.read_text(), _written_text(written), bool(meta.get("ordered")), str(written), sep)


EXAMPLES = sorted((ROOT.parent / "examples").glob("*.py"))


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.name)
def test_quickstart_example_converts_and_prints_expected(example: Path, spark, tmp_path):
    """The README quickstart's demo programs: fully converted, and their output as expected."""
    result = convert_source(example.read_text(), str(example))
    assert result.status == "converted", result.markers
    converted = tmp_path / example.name
    converted.write_text(result.output)
    stdout = io.StringIO()
    with contextlib.redirect_stdout(stdout):
        runpy.run_path(str(converted), run_name="__main__")
    assert_same_records(example.with_suffix(".expected.txt").read_text(), stdout.getvalue(), ordered=True)
