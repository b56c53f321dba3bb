"""Three Table API / SQL fixtures (fixtures/table/) re-run on real Flink give what was recorded.

A batch one, a streaming one (changelog folded) and one writing files under sys.argv[1]: the
records ``flink_records`` reads from the new run's stdout equal those of expected_stdout.txt
(recorded raw by ``python tests/flink_reference.py --set table NAME``), and the files written
equal expected_files/.  About 10-20 s per fixture on 2 cores.  Skipped when the reference venv
is absent (a failure in CI, as in test_flink_reference.py).
"""

from __future__ import annotations

import pytest

from flink_reference import TABLE_FIXTURES, read_output_files, run_fixture_raw
from table_output import flink_records

# the marks of the PyFlink fixtures' test: flink; skipped without the reference venv, except in CI
from test_flink_reference import pytestmark  # noqa: F401

RERUN = ["orders_batch_revenue", "clicks_streaming_counts", "sensor_csv_to_json_sink"]


@pytest.mark.parametrize("name", RERUN)
def test_table_fixture_matches_flink(name):
    fixture = TABLE_FIXTURES / name
    expected = flink_records((fixture / "expected_stdout.txt").read_text())
    stdout, files = run_fixture_raw(fixture, timeout=300)
    assert flink_records(stdout) == expected, f"{name}: Flink output differs from expected_stdout.txt"
    files_dir = fixture / "expected_files"
    assert files == (read_output_files(files_dir) if files_dir.is_dir() else {}), f"{name}: written files differ"


def test_the_file_fixture_writes_files():
    assert (TABLE_FIXTURES / "sensor_csv_to_json_sink" / "expected_files").is_dir()
