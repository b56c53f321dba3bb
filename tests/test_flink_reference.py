"""The PyFlink fixtures (fixtures/pyflink/*/) give their recorded output on real Flink.

Each fixture's input.py runs on the reference interpreter (.venv-flink, apache-flink 2.3.0,
see scripts/flink_reference.sh) with a fresh output folder as sys.argv[1]; its normalized
print output is compared as a multiset with expected_stdout.txt, and the files it wrote with
expected_files/ (part file names normalized, lines sorted).

Skipped when the reference venv is absent.  About 7 s per fixture (a JVM mini cluster and
a Python worker start for each program), ~2.7 min for all on 2 cores.  Regenerate the
expected outputs with ``python tests/flink_reference.py [NAME ...]``.
"""

from __future__ import annotations

import json
import os
from collections import Counter

import pytest

from flink_reference import (
    FIXTURES,
    SETUP_SCRIPT,
    fixture_dirs,
    flink_available,
    flink_python,
    normalize_time_buckets,
    read_expected,
    run_fixture,
)

FIXTURE_DIRS = fixture_dirs()

# CI (CI=true, see .ci/run) creates the reference venv first: there a missing venv is a
# failure, never a silent skip.
IN_CI = os.environ.get("CI", "").lower() == "true"

pytestmark = [
    pytest.mark.flink,
    pytest.mark.skipif(
        not IN_CI and not flink_available(),
        reason=f"reference Flink not installed ({flink_python()} missing or cannot import "
        f"pyflink); create it with {SETUP_SCRIPT.relative_to(SETUP_SCRIPT.parents[1])}",
    ),
]


def test_reference_engine_available():
    assert flink_available(), f"reference Flink missing: run {SETUP_SCRIPT.relative_to(SETUP_SCRIPT.parents[1])}"


def test_fixtures_present():
    assert len(FIXTURE_DIRS) >= 20, f"expected at least 20 fixtures in {FIXTURES}"
    for fixture in FIXTURE_DIRS:
        meta = json.loads((fixture / "fixture.json").read_text())
        assert meta["description"] and meta["constructs"], fixture.name
        assert meta["ordered"] is False, fixture.name
        assert (fixture / "expected_stdout.txt").is_file(), fixture.name


@pytest.mark.parametrize("fixture", FIXTURE_DIRS, ids=[f.name for f in FIXTURE_DIRS])
def test_fixture_matches_flink(fixture):
    expected_records, expected_files = read_expected(fixture)
    records, files = run_fixture(fixture, timeout=300)

    missing = Counter(expected_records) - Counter(records)
    extra = Counter(records) - Counter(expected_records)
    assert not missing and not extra, (
        f"{fixture.name}: Flink output differs from expected_stdout.txt\n"
        f"missing: {sorted(missing.elements())}\nextra: {sorted(extra.elements())}"
    )
    # date-time bucket folders name the hour of the run
    assert normalize_time_buckets(files) == normalize_time_buckets(expected_files), f"{fixture.name}: written files differ from expected_files/"
