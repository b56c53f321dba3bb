"""Converted programs on Spark Connect (issue 14: native output runs unchanged on a Connect
server; the Table API conversion is native from the start).

A local Spark Connect server is started for the module (a regular session with Spark's
``SparkConnectPlugin``, in its own process), and every table fixture that converts with no TODO
(Kafka fixtures aside: they need the local-streams harness of ``test_table_fixtures``) runs as
``spark-submit --remote`` would run it, in a fresh Python process whose ``SparkSession.builder
.getOrCreate()`` connects to that server (``SPARK_REMOTE``, ``SPARK_CONNECT_MODE_ENABLED``). What it prints and writes is
compared with Flink's records as ``test_table_fixtures`` compares them. A program that needs the
classic API (RDDs, ``sparkContext``) fails there: Connect has neither.

``CONNECT_NOT_YET`` lists the fixtures whose conversions do not run on Connect yet, with the
reason; a fixture there that starts running makes the test fail, so the list only shrinks.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from test_table_fixtures import KAFKA, RUNNABLE, _lines_by_folder, place_modules

_DATASTREAM_PART = "its DataStream part runs on RDDs (sparkContext: NOTE F2S205), which Connect does not offer"
CONNECT_NOT_YET: dict[str, str] = {
    "shipments_table_to_stream_map": _DATASTREAM_PART,
}

SERVER = """
import sys
from pyspark.sql import SparkSession
spark = (SparkSession.builder.master("local[2]").appName("flink2spark-connect-tests")
         .config("spark.plugins", "org.apache.spark.sql.connect.SparkConnectPlugin")
         .config("spark.connect.grpc.binding.port", sys.argv[1])
         .config("spark.sql.warehouse.dir", sys.argv[2])
         .config("spark.ui.enabled", "false").config("spark.sql.shuffle.partitions", "4")
         .getOrCreate())
print("READY", flush=True)
sys.stdin.read()  # until the tests close the pipe
spark.stop()
"""

# Runs one converted program as __main__ (argv: program, output folder), then drops the tables
# it declared: the server's catalog outlives the client's session.
CLIENT = """
import runpy, sys
from pyspark.sql import SparkSession
sys.argv = sys.argv[1:]
try:
    runpy.run_path(sys.argv[0], run_name="__main__")
finally:
    spark = SparkSession.builder.getOrCreate()
    assert type(spark).__module__.startswith("pyspark.sql.connect"), type(spark)
    for table in spark.catalog.listTables():
        if not table.isTemporary:
            spark.sql(f"DROP TABLE IF EXISTS `{table.name}`")
    spark.stop()
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("localhost", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def connect_server(tmp_path_factory):
    port = _free_port()
    env = {**os.environ, "PYSPARK_PYTHON": sys.executable, "PYSPARK_DRIVER_PYTHON": sys.executable}
    env.pop("SPARK_REMOTE", None)
    warehouse = tmp_path_factory.mktemp("connect-warehouse")
    server = subprocess.Popen([sys.executable, "-c", SERVER, str(port), str(warehouse)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
    try:
        line = server.stdout.readline()
        assert line.strip() == "READY", f"the Spark Connect server did not start: {line!r}"
        deadline = time.time() + 120
        while True:  # the gRPC port opens a moment after the session is up
            try:
                socket.create_connection(("localhost", port), timeout=1).close()
                break
            except OSError:
                assert time.time() < deadline, "the Spark Connect server's port did not open"
                time.sleep(0.5)
        yield f"sc://localhost:{port}"
    finally:
        server.stdin.close()
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            server.kill()


ON_CONNECT = [p for p in RUNNABLE if p not in KAFKA]


def _run_on_connect(program: Path, connect_server: str, tmp_path: Path):
    """(output folder, finished process) of ``program`` run as a Connect client."""
    out = tmp_path / "out"
    out.mkdir()
    # what `spark-submit --remote sc://...` gives the program (SparkSubmit's PythonRunner sets both)
    env = {**os.environ, "SPARK_REMOTE": connect_server, "SPARK_CONNECT_MODE_ENABLED": "1", "PYSPARK_PYTHON": sys.executable}
    done = subprocess.run([sys.executable, "-c", CLIENT, str(program), str(out)], capture_output=True,
                          text=True, timeout=600, env=env, cwd=str(tmp_path))
    return out, done


@pytest.mark.parametrize("fixture", ON_CONNECT, ids=lambda p: p.name)
def test_converted_table_program_runs_unchanged_on_spark_connect(fixture: Path, connect_server, tmp_path):
    from table_output import fixture_records, spark_records

    place_modules(fixture, tmp_path)  # the client's folder: what the program imports from
    out, done = _run_on_connect(fixture / "converted.py", connect_server, tmp_path)
    if fixture.name in CONNECT_NOT_YET:
        assert done.returncode != 0, f"{fixture.name} runs on Spark Connect now: take it off CONNECT_NOT_YET"
        return
    assert done.returncode == 0, done.stderr[-3000:]
    got = spark_records(done.stdout)
    want = fixture_records(fixture)  # Flink's records (less the -1 of an INSERT's print(): NOTE F2S328)
    assert got == want, f"missing: {sorted((want - got).elements())}; extra: {sorted((got - want).elements())}"
    expected_files = fixture / "expected_files"
    if expected_files.is_dir():
        csv_folders = json.loads((fixture / "fixture.json").read_text()).get("csv_records", [])
        assert _lines_by_folder(out, csv_folders) == _lines_by_folder(expected_files, csv_folders)


def test_every_runnable_table_fixture_is_tried_on_connect():
    assert len(ON_CONNECT) >= 99
    assert len(ON_CONNECT) - len(CONNECT_NOT_YET) >= 98  # run on Connect (raise it when fixtures leave CONNECT_NOT_YET)
    assert set(CONNECT_NOT_YET) <= {p.name for p in ON_CONNECT}


# PyFlink fixtures whose streams the program model lowers all to DataFrames (issue 14): their
# conversion makes no RDD, so it carries no NOTE F2S205 and must run on Connect as it is.
PYFLINK = Path(__file__).resolve().parent.parent / "fixtures" / "pyflink"
# Not on Connect yet, with the reason: add_python_file() is sparkContext.addPyFile (a Connect
# session's is addArtifacts(pyfile=True), which a classic session does not have: env_settings_job).
PYFLINK_FRAMES_NOT_ON_CONNECT = {"env_settings_job"}
PYFLINK_FRAMES = sorted(p for p in PYFLINK.iterdir() if (p / "converted.py").is_file()
                        and "F2S205" not in (p / "converted.py").read_text()
                        and p.name not in PYFLINK_FRAMES_NOT_ON_CONNECT)


@pytest.mark.parametrize("fixture", PYFLINK_FRAMES, ids=lambda p: p.name)
def test_all_frame_pyflink_program_runs_unchanged_on_spark_connect(fixture: Path, connect_server, tmp_path):
    from flink_reference import normalize_flink_print, normalize_time_buckets, read_expected, read_output_files, records_by_folder
    from table_output import flink_stream_records, spark_stream_records

    out, done = _run_on_connect(fixture / "converted.py", connect_server, tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    got = spark_stream_records(done.stdout, normalize_flink_print)
    want = flink_stream_records((fixture / "expected_stdout.txt").read_text().splitlines())
    assert got == want, f"missing: {sorted((want - got).elements())}; extra: {sorted((got - want).elements())}"
    # file sinks (DataFrameWriter.text): the same records in the same folders as Flink's
    _, want_files = read_expected(fixture)
    got_files = normalize_time_buckets(read_output_files(out, own_files=False))
    assert records_by_folder(got_files) == records_by_folder(normalize_time_buckets(want_files))


def test_all_frame_pyflink_fixtures_only_grow():
    assert len(PYFLINK_FRAMES) >= 54  # raise it when more PyFlink fixtures convert with no RDD


# DataSet fixtures whose data sets the program model lowers all to DataFrames (issue 14,
# rules/dataset/_frames.py): no RDD, no sparkContext, so they run on Connect as they are.
DATASET = Path(__file__).resolve().parent.parent / "fixtures" / "dataset"
DATASET_FRAMES = sorted(p for p in DATASET.iterdir() if (p / "converted.py").is_file()
                        and not any(word in (p / "converted.py").read_text() for word in ("sparkContext", ".rdd")))


@pytest.mark.parametrize("fixture", DATASET_FRAMES, ids=lambda p: p.name)
def test_all_frame_dataset_program_runs_unchanged_on_spark_connect(fixture: Path, connect_server, tmp_path):
    from test_fixtures import _written_text, assert_same_records

    out, done = _run_on_connect(fixture / "converted.py", connect_server, tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    meta = json.loads((fixture / "fixture.json").read_text())
    assert_same_records((fixture / "expected_stdout.txt").read_text(), done.stdout, bool(meta.get("ordered")))
    expected_files = fixture / "expected_files"
    for path in sorted(p for p in expected_files.rglob("*") if p.is_file()) if expected_files.is_dir() else ():
        written = out / path.relative_to(expected_files)
        assert_same_records(path.read_text(), _written_text(written), bool(meta.get("ordered")), str(written),
                            meta.get("csv_files", {}).get(path.name))


def test_all_frame_dataset_fixtures_only_grow():
    assert len(DATASET_FRAMES) >= 3  # raise it when more DataSet fixtures convert with no RDD
