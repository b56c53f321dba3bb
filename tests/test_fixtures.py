"""Every fixture program: its conversion matches the snapshot, and the converted program, run on
a real local Spark session, produces the expected (hand-derived) results.

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


def _lines(text: str) -> list[str]:
    return text.splitlines()


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
    got = _lines(stdout.getvalue())
    want = _lines(expected_stdout.read_text()) if expected_stdout.exists() else []
    if meta.get("ordered"):
        assert got == want
    else:
        assert Counter(got) == Counter(want), f"missing: {Counter(want) - Counter(got)}; extra: {Counter(got) - Counter(want)}"
    expected_files = fixture / "expected_files"
    if expected_files.is_dir():
        for path in sorted(p for p in expected_files.rglob("*") if p.is_file()):
            written = out_dir / path.relative_to(expected_files)
            assert written.is_file(), f"{written} was not written"
            assert written.read_bytes() == path.read_bytes(), f"{written} differs from {path}"


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
    expected = example.with_suffix(".expected.txt").read_text()
    assert stdout.getvalue() == expected
