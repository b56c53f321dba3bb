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
import csv
import contextlib
import io
import json
import re
import runpy
import shutil
import sys
from collections import Counter
from pathlib import Path

import pytest

from flink2spark.transpiler.engine import convert_source
from test_pyflink_streaming import fake_kafka  # noqa: F401  (a pytest fixture)

ROOT = Path(__file__).resolve().parent.parent / "fixtures" / "table"
FIXTURES = sorted(p for p in ROOT.iterdir() if (p / "input.py").is_file()) if ROOT.is_dir() else []
# how many fixtures convert with no TODO: raise it when more do (it may not go down)
CONVERTED_WITHOUT_TODO = 120


def _ids(p: Path) -> str:
    return p.name


def _convert(fixture: Path):
    return convert_source((fixture / "input.py").read_text(), str(fixture / "input.py"))


def modules(fixture: Path) -> list[str]:
    """The fixture's sibling modules (fixture.json "modules": ``<name>.py`` next to input.py, which
    imports them; each converts on its own to ``converted_<name>.py``, or to itself when it holds
    no Flink code: then no ``converted_<name>.py``)."""
    return json.loads((fixture / "fixture.json").read_text()).get("modules", [])


def place_modules(fixture: Path, folder: Path) -> None:
    """The converted sibling modules of ``fixture`` written to ``folder`` under their own names,
    where the converted program imports them from (its folder, as input.py on Flink)."""
    for name in modules(fixture):
        converted = fixture / f"converted_{name}.py"
        (folder / f"{name}.py").write_text((converted if converted.is_file() else fixture / f"{name}.py").read_text())


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
    for name in modules(fixture):  # a sibling module converts on its own, to itself again
        module = convert_source((fixture / f"{name}.py").read_text(), str(fixture / f"{name}.py"))
        assert module.output is not None and "TODO(flink2spark)" not in module.output, module.markers
        if module.status == "unchanged":
            assert not (fixture / f"converted_{name}.py").exists()
            continue
        snapshot.assert_match(module.output, f"converted_{name}.py")
        assert convert_source(module.output, f"{name}.py").output == module.output


def test_fixtures_converted_without_todo():
    assert len(FIXTURES) >= len(RUNNABLE)
    assert len(RUNNABLE) >= CONVERTED_WITHOUT_TODO, f"converted without TODO: {[p.name for p in RUNNABLE]}"


@pytest.fixture
def clean_catalog(spark):
    """Tables and views a program declared are dropped after it, and the session time zone it
    set (``table.local-time-zone``) is put back: one Spark session runs all tests."""
    zone = spark.conf.get("spark.sql.session.timeZone")
    yield
    spark.conf.set("spark.sql.session.timeZone", zone)
    for table in spark.catalog.listTables():
        if table.isTemporary:
            spark.catalog.dropTempView(table.name)
        else:
            spark.sql(f"DROP TABLE IF EXISTS `{table.name}`")


@pytest.mark.parametrize("fixture", [p for p in RUNNABLE if not (p / "kafka_in.json").is_file()], ids=_ids)
def test_converted_program_gives_flinks_records(fixture: Path, spark, tmp_path, clean_catalog):
    _run_and_compare(fixture, tmp_path, {})


KAFKA = [p for p in RUNNABLE if (p / "kafka_in.json").is_file()]


@pytest.mark.parametrize("fixture", KAFKA, ids=_ids)
def test_converted_kafka_program_gives_flinks_records(fixture: Path, spark, tmp_path, clean_catalog, fake_kafka, state_store_reset):
    """A Kafka program (fixtures with kafka_in.json) on local streams (``fake_kafka``: the topics
    are folders of the records of kafka_in.json, the Kafka writes are captured); Flink's records
    were recorded by its reference.py (Kafka tables replaced by filesystem ones: its docstring).
    An upsert-kafka sink's topic (fixture.json "upsert_topics") is compared by its meaning: the
    latest value per key it holds are the rows of the table, which Flink's reference printed as
    a changelog (+I/-U/+U) into a print table: folded into its final table."""
    publish, written, keyed, drain = fake_kafka
    for topic, records in json.loads((fixture / "kafka_in.json").read_text()).items():
        publish(topic, records)
    _run_and_compare(fixture, tmp_path / "out", written, lambda: drain(spark), keyed)


def _latest_values(records: list[tuple[str, str]]) -> Counter:
    """The rows an upsert topic holds: each key's latest value (a None value, a tombstone,
    deletes the key), as records of their json fields' texts. Each key must be the json of its
    value's fields of the same names (the primary key's columns)."""
    from table_output import normalise_value

    latest: dict[str, dict] = {}
    for key, value in records:
        if value is None:
            latest.pop(key, None)
            continue
        fields = json.loads(value)
        assert json.loads(key) == {k: fields[k] for k in json.loads(key)}, (key, value)
        latest[key] = fields
    def text(v) -> str:  # the print connector's text of a json value
        return "null" if v is None else str(v).lower() if isinstance(v, bool) else str(v)

    return Counter(tuple(normalise_value(text(v)) for v in fields.values()) for fields in latest.values())


def _run_and_compare(fixture: Path, out: Path, kafka: dict, after=lambda: None, keyed: dict = {}):
    from table_output import fixture_records, spark_records

    out.mkdir(exist_ok=True)
    converted = fixture / "converted.py"
    stdout = io.StringIO()
    argv = sys.argv
    sys.argv = [str(converted), str(out)]
    folder = out.parent / "modules"  # the converted sibling modules, imported as on Flink from the program's folder
    folder.mkdir(exist_ok=True)
    place_modules(fixture, folder)
    sys.path.insert(0, str(folder))
    try:
        with contextlib.redirect_stdout(stdout):
            runpy.run_path(str(converted), run_name="__main__")
            after()
    finally:
        sys.argv = argv
        sys.path.remove(str(folder))
        for name in modules(fixture):
            sys.modules.pop(name, None)
    got = spark_records(stdout.getvalue())
    for topic in json.loads((fixture / "fixture.json").read_text()).get("upsert_topics", []):
        assert keyed.get(topic), f"nothing written with a key to {topic}"
        got += _latest_values(keyed[topic])
    want = fixture_records(fixture)  # Flink's records (less the -1 of an INSERT's print(): NOTE F2S328)
    assert got == want, f"missing: {sorted((want - got).elements())}; extra: {sorted((got - want).elements())}"
    expected_files = fixture / "expected_files"
    if expected_files.is_dir():
        csv_folders = json.loads((fixture / "fixture.json").read_text()).get("csv_records", [])
        files = _lines_by_folder(out, csv_folders)
        files.update({f"kafka/{topic}": Counter(lines) for topic, lines in kafka.items()})
        assert files == _lines_by_folder(expected_files, csv_folders)


def _lines_by_folder(root: Path, csv_folders: list[str] = ()) -> dict[str, Counter]:
    """The lines of the files under ``root``, per folder: Flink and Spark name and split their
    part files differently. Spark's ``_SUCCESS`` and hidden ``.crc`` files are not data. In the
    folders of ``csv_folders`` (a fixture's "csv_records": csv sinks), the records the lines hold:
    Flink quotes every field with a space in it ("Ada Lovelace"), Spark only those that need it,
    the same record to a csv reader."""
    out: dict[str, Counter] = {}
    for path in sorted(p for p in root.rglob("*") if p.is_file() and not p.name.startswith((".", "_"))):
        folder = str(path.parent.relative_to(root))
        lines = path.read_text().splitlines()
        if folder in csv_folders:
            lines = [tuple(record) for record in csv.reader(lines)]
        out.setdefault(folder, Counter()).update(lines)
    return out


IMPORT_CHECK = """
import os, runpy, sys
from pyspark.sql import SparkSession
failed = []
for path in sys.argv[1:]:
    sys.path.insert(0, os.path.dirname(path))  # its sibling modules, as spark-submit finds them
    try:
        runpy.run_path(path, run_name="f2s_import_check")  # module level only: main() does not run
    except Exception as exc:
        failed.append(f"{path}: {type(exc).__name__}: {str(exc)[:200]}")
    finally:
        sys.path.pop(0)
    active = SparkSession.getActiveSession()
    if active is not None:
        active.stop()
print("FAILED" if failed else "OK", *failed, sep="\\n")
"""


def test_converted_programs_load_before_any_spark_session_exists(tmp_path):
    """spark-submit runs a converted program's module code before its main() starts a session:
    what it defines at import (UDFs and their return types) must not need one. The other tests run
    converted programs in this process, where a session already exists, so they cannot see this
    (PySpark 4.3 parses a UDF's type string only with a session: SESSION_OR_CONTEXT_NOT_EXISTS)."""
    import subprocess

    paths = []
    for p in RUNNABLE:
        if (p / "kafka_in.json").is_file() and "__main__" not in (p / "converted.py").read_text():
            continue  # its module level is the streaming job itself, which reads Kafka: run with fake_kafka above
        if modules(p):  # the program imports its converted sibling modules from its own folder
            folder = tmp_path / p.name
            folder.mkdir()
            place_modules(p, folder)
            shutil.copy(p / "converted.py", folder / "converted.py")
            paths.append(str(folder / "converted.py"))
        else:
            paths.append(str(p / "converted.py"))
    done = subprocess.run([sys.executable, "-c", IMPORT_CHECK, *paths], capture_output=True, text=True, timeout=600,
                          cwd=str(Path(__file__).resolve().parent.parent))
    assert done.stdout.splitlines()[:1] == ["OK"], done.stdout + done.stderr[-2000:]


def test_table_programs_without_a_datastream_need_no_flink2spark_at_run_time():
    """The Table API converts to plain PySpark: a converted table fixture imports nothing of
    flink2spark (its runtime shim) unless its program also makes DataStreams (the bridges)."""
    shim_users = [p.name for p in FIXTURES if re.search(r"^(from|import) flink2spark", (p / "converted.py").read_text(), re.M)
                  and "pyflink.datastream" not in (p / "input.py").read_text()]
    assert shim_users == []
