"""PyFlink fixtures (fixtures/pyflink/*/): converted programs give real Flink's output.

Every fixture converts with no TODO: its conversion matches the snapshot
``converted.py`` in the fixture folder (converting that again changes nothing), and the
converted program, run on a local Spark session, prints what Flink 2.3 printed
(``expected_stdout.txt``, recorded by ``tests/flink_reference.py`` and normalized with
``normalize_flink_print``), compared as multisets of RECORDS, not print formats: a stream
converted to a DataFrame prints ``show()`` boxes, one kept as an RDD prints Flink's lines
through the shim; ``table_output.flink_stream_records``/``spark_stream_records`` read both.

How constructs without a conversion are marked is tested in ``test_pyflink_engine.py``.

Refresh snapshots after an intended change with
``pytest tests/test_pyflink_fixtures.py --snapshot-update`` and review the diff.
"""

from __future__ import annotations

import contextlib
import io
import runpy
import sys
from pathlib import Path

import pytest

from flink_reference import normalize_flink_print, normalize_time_buckets, read_expected, read_output_files, records_by_folder
from table_output import flink_stream_records, spark_stream_records
from flink2spark.transpiler.engine import convert_source

ROOT = Path(__file__).resolve().parent.parent / "fixtures" / "pyflink"
FIXTURES = sorted(p for p in ROOT.iterdir() if (p / "input.py").is_file())



def _ids(p: Path) -> str:
    return p.name


def _convert(fixture: Path):
    return convert_source((fixture / "input.py").read_text(), str(fixture / "input.py"))


def test_every_fixture_is_listed_once():
    names = {p.name for p in FIXTURES}
    assert len(names) == len(FIXTURES) >= 20


@pytest.mark.parametrize("fixture", FIXTURES, ids=_ids)
def test_conversion_snapshot(fixture: Path, snapshot):
    result = _convert(fixture)
    assert result.output is not None, result.markers
    assert result.status == "converted", [m.format("input.py") for m in result.markers if m.severity == "todo"]
    assert "pyflink" not in result.output
    snapshot.snapshot_dir = fixture
    snapshot.assert_match(result.output, "converted.py")
    # idempotent: converting the converted program changes nothing
    assert convert_source(result.output, "converted.py").output == result.output


@pytest.mark.parametrize("fixture", FIXTURES, ids=_ids)
def test_converted_program_prints_what_flink_printed(fixture: Path, spark, tmp_path):
    converted = fixture / "converted.py"
    if not converted.exists():
        pytest.fail("no converted.py snapshot: run pytest --snapshot-update")
    stdout = io.StringIO()
    argv = sys.argv
    sys.argv = [str(converted), str(tmp_path)]
    try:
        with contextlib.redirect_stdout(stdout):
            runpy.run_path(str(converted), run_name="__main__")
    finally:
        sys.argv = argv
    got = spark_stream_records(stdout.getvalue(), normalize_flink_print)
    want = flink_stream_records((fixture / "expected_stdout.txt").read_text().splitlines())
    assert got == want, f"missing: {sorted((want - got).elements())}; extra: {sorted((got - want).elements())}"
    # files written by file sinks: the same records in the same folders as Flink's (NOTE F2S241:
    # not Flink's part-file names)
    _, want_files = read_expected(fixture)
    got_files = normalize_time_buckets(read_output_files(tmp_path, own_files=False))
    assert records_by_folder(got_files) == records_by_folder(normalize_time_buckets(want_files))
