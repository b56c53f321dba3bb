"""fixtures/table/: the Table API / SQL programs recorded on Flink 2.3 (no Flink run here).

Each fixture has input.py (with a docstring), fixture.json (description, constructs,
"ordered": false, notes) and expected_stdout.txt (raw stdout, recorded by
``python tests/flink_reference.py --set table NAME``; tests/test_table_reference.py re-runs
three on Flink).  The construct marks that can be read off the source are checked against it,
so that a converter can pick its fixtures by construct; every construct family of the Table
API / SQL rule set has a fixture.

Findings on PyFlink 2.3.0 while writing them (what a conversion has to match or avoid)
    * String expressions are gone: ``t.select("k, v.sum as total")`` fails with AttributeError
      ('str' object has no attribute '_j_expr'); no fixture uses them.
    * ``AVG`` over an INT column is an INT (integer division): orders_batch_revenue prints 1
      where Spark's avg gives 1.5.
    * A Table API Session window in BATCH mode fails ("Window SessionGroupWindow(...) is not
      supported right now"); Tumble and Slide work there on any TIMESTAMP(3) column, without
      a watermark (energy_slide_windows_batch).  Sessions are recorded in streaming mode.
    * An empty CSV field fails the job (NumberFormatException) unless ``'csv.null-literal' = ''``.
    * Reserved words as column names fail to parse: views, large, method, dec, by.
    * Streaming Top-N (ROW_NUMBER) over an updating SUM prints intermediate ranks (-U/+U of
      rows Spark never computes); only the folded table compares.  A streaming LEFT JOIN
      prints +I with NULLs and later -D of them.
    * Python UDAF / UDTAF results came out once per key (+I only) in streaming mode, probably
      because the few rows reach the Python worker in one bundle (not verified).
    * Output formats: the tableau right-aligns, writes ``<NULL>``, ``TRUE``, timestamps with
      their precision (``.000``), cuts values over 30 characters to ``...``; an empty result is
      the single line ``Empty set``.  The print connector writes Java's ``Row.toString``
      (``+I[a, 1]``, ``null``, ``true``, ``2024-01-01T10:00``) behind ``name> ``/``name:N> ``;
      ``to_data_stream(...).print()`` writes PyFlink's ``+I[a,1]`` (no space, Python ``str``).
      See tests/table_output.py.
"""

from __future__ import annotations

import json
import re

import pytest

from flink_reference import TABLE_FIXTURES, fixture_dirs
from table_output import flink_records

TABLE_FIXTURE_DIRS = fixture_dirs(TABLE_FIXTURES)

# construct mark -> regex over input.py: the mark is listed exactly when the source matches
CONSTRUCT_PATTERNS = {
    "TableEnvironment.create": r"(?<!Stream)TableEnvironment\.create\(",
    "StreamTableEnvironment.create": r"StreamTableEnvironment\.create\(",
    "EnvironmentSettings.in_batch_mode": r"\bin_batch_mode\(\)",
    "EnvironmentSettings.in_streaming_mode": r"\bin_streaming_mode\(\)",
    "EnvironmentSettings.new_instance().build()": r"EnvironmentSettings\.new_instance\(\)",
    "get_config().set": r"get_config\(\)\.set\(",
    "from_pandas": r"\.from_pandas\(",
    "to_pandas": r"\.to_pandas\(\)",
    "collect": r"\.collect\(\)",
    "from_path": r"\.from_path\(",
    "create_temporary_view": r"\.create_temporary_view\(",
    "CREATE VIEW": r"CREATE (?:TEMPORARY )?VIEW",
    "WATERMARK FOR": r"WATERMARK FOR",
    "print_connector": r"'connector' = 'print'",
    "print-identifier": r"'print-identifier'",
    "datagen_sequence": r"'connector' = 'datagen'",
    "execute().print()": r"\.execute\(\)\.print\(\)",
    "execute_insert": r"\.execute_insert\(",
    "create_statement_set": r"\.create_statement_set\(\)",
    "add_insert_sql": r"\.add_insert_sql\(",
    "add_insert": r"\.add_insert\(",
    "sql_query": r"\.sql_query\(",
    "sys_argv_output": r"sys\.argv\[1\]",
    "select": r"\.select\(",
    "filter": r"\.filter\(",
    "where": r"\.where\(",
    "add_columns": r"\.add_columns\(",
    "add_or_replace_columns": r"\.add_or_replace_columns\(",
    "drop_columns": r"\.drop_columns\(",
    "rename_columns": r"\.rename_columns\(",
    "distinct": r"\.distinct\(\)",
    "join": r"(?<!os\.path)\.join\(",
    "left_outer_join": r"\.left_outer_join\(",
    "right_outer_join": r"\.right_outer_join\(",
    "full_outer_join": r"\.full_outer_join\(",
    "union": r"\.union\(",
    "union_all": r"\.union_all\(",
    "intersect": r"\.intersect\(",
    "minus": r"\.minus\(",
    "order_by": r"(?m)^(?!.*\bOver\.).*\.order_by\(",  # Table.order_by, not Over...order_by
    "fetch": r"\.fetch\(",
    "offset": r"\.offset\(",
    "limit": r"\.limit\(",
    "window_tumble": r"Tumble\.over\(",
    "window_slide": r"Slide\.over\(",
    "window_session": r"Session\.with_gap\(",
    "over_window": r"\.over_window\(",
    "map": r"\.map\(",
    "flat_map": r"\.flat_map\(",
    "aggregate": r"\.aggregate\(",
    "flat_aggregate": r"\.flat_aggregate\(",
    "col": r"\bcol\(",
    "lit": r"\blit\(",
    "call": r"\bcall\(",
    "if_then_else": r"\bif_then_else\(",
    "udf": r"@udf\(|\budf\(",
    "udtf": r"@udtf\(",
    "udaf": r"@udaf\(|\budaf\(",
    "udtaf": r"\budtaf\(",
    "ScalarFunction_open": r"\(ScalarFunction\)",
    "AsyncScalarFunction": r"\(AsyncScalarFunction\)",
    "async_def_udf": r"@udf\(.*\)\nasync def ",
    "AggregateFunction": r"\(AggregateFunction\)",
    "TableAggregateFunction": r"\(TableAggregateFunction\)",
    "join_lateral": r"\.join_lateral\(",
    "left_outer_join_lateral": r"\.left_outer_join_lateral\(",
    "from_data_stream": r"\.from_data_stream\(",
    "to_data_stream": r"\.to_data_stream\(",
    "to_changelog_stream": r"\.to_changelog_stream\(",
    "sql_row_number_top_n": r"ROW_NUMBER\(\)",
    "window_tvf_tumble": r"TABLE\(\s*TUMBLE\(",
    "sql_group_window_hop": r"GROUP BY[^\n]*\bHOP\(",
    "sql_group_window_tumble": r"GROUP BY[^\n]*\bTUMBLE\(",
    # Flink 1.9-1.13 (fixtures with a "twin" in fixture.json)
    "BatchTableEnvironment.create": r"BatchTableEnvironment\.create\(",
    "connect_descriptor": r"\.connect\(",
    "insert_into": r"\.insert_into\(",
    "sql_update": r"\.sql_update\(",
    "scan": r"\.scan\(",
    "register_function": r"\.register_function\(",
    "get_configuration().set_string": r"\.get_configuration\(\)\.set_string\(",
    "TableEnvironment.execute(job_name)": r"\bt_env\.execute\(\s*[\"']",
    "create_temporary_table_descriptor": r"\.create_temporary_table\(\s*\n?\s*[\"'][^\"']*[\"'],\s*\n?\s*TableDescriptor",
    "kafka_connector": r"'connector' = 'kafka'|for_connector\([\"']kafka[\"']\)",
    "use_catalog": r"\.use_catalog\(",
    "use_database": r"\.use_database\(",
}

# marks set by hand (not told from the source by a regex); each needs a fixture too
HAND_MARKS = {
    "from_elements_column_names", "from_elements_row_schema", "DataTypes.ROW",
    "execute_sql_create_table_filesystem_csv", "execute_sql_create_table_filesystem_json",
    "execute_sql_create_table_filesystem_csv_sink", "execute_sql_create_table_filesystem_json_sink",
    "execute_sql_select_print", "execute_sql_insert", "changelog_print", "datastream_print",
    "group_by_select_aggregates", "arithmetic", "string_functions", "cast", "is_null",
    "pandas_udf", "pandas_udaf", "sql_group_by", "sql_over_range", "sql_left_join",
    "kafka_source_table", "kafka_sink_table", "kafka_descriptor", "kafka_computed_column",
    "execute_sql_insert_print",  # execute_sql("INSERT ...").print(): Flink prints -1 (NOTE F2S328)
    "kept_table_result",  # result = execute_sql(query) / table.execute(), then result.print()/collect()
}


def _meta(fixture):
    return json.loads((fixture / "fixture.json").read_text())


def test_table_fixtures_present():
    assert len(TABLE_FIXTURE_DIRS) >= 25
    modes = set()
    for fixture in TABLE_FIXTURE_DIRS:
        meta = _meta(fixture)
        assert meta["description"] and meta["constructs"] and meta["ordered"] is False, fixture.name
        assert isinstance(meta["notes"], list), fixture.name
        source = (fixture / "input.py").read_text()
        assert source.lstrip().startswith('"""'), f"{fixture.name}: no docstring"
        modes.update(m for m in ("in_batch_mode", "in_streaming_mode", "StreamTableEnvironment") if m in source)
    assert modes == {"in_batch_mode", "in_streaming_mode", "StreamTableEnvironment"}


@pytest.mark.parametrize("fixture", TABLE_FIXTURE_DIRS, ids=[f.name for f in TABLE_FIXTURE_DIRS])
def test_construct_marks_match_the_source(fixture):
    source = (fixture / "input.py").read_text()
    marks = set(_meta(fixture)["constructs"])
    used = {mark for mark, pattern in CONSTRUCT_PATTERNS.items() if re.search(pattern, source)}
    assert used - marks == set(), f"{fixture.name}: used but not marked"
    assert (marks & set(CONSTRUCT_PATTERNS)) - used == set(), f"{fixture.name}: marked but not used"


def test_every_construct_has_a_fixture():
    marked = set().union(*(_meta(f)["constructs"] for f in TABLE_FIXTURE_DIRS))
    assert (set(CONSTRUCT_PATTERNS) | HAND_MARKS) - marked == set()


@pytest.mark.parametrize("fixture", TABLE_FIXTURE_DIRS, ids=[f.name for f in TABLE_FIXTURE_DIRS])
def test_recorded_output_parses(fixture):
    records = flink_records((fixture / "expected_stdout.txt").read_text())
    if "prints_nothing" in _meta(fixture):  # recorded so, for the reason the fixture gives
        assert not records and _meta(fixture)["prints_nothing"], fixture.name
        return
    assert records or (fixture / "expected_files" / "kafka").is_dir(), fixture.name  # a Kafka sink's records are files
    for record in records:  # no piece of a box is left over as a plain line
        assert not (len(record) == 1 and record[0][:1] in "+|"), (fixture.name, record)


LEGACY = [f for f in TABLE_FIXTURE_DIRS if "twin" in _meta(f)]


def test_legacy_fixtures_present():
    assert len(LEGACY) >= 3


@pytest.mark.parametrize("fixture", LEGACY, ids=[f.name for f in LEGACY])
def test_legacy_fixture_is_recorded_from_its_twin(fixture):
    """A fixture of Flink 1.9-1.13's Table API (gone from Flink 2.3) reads the same data as its
    modern twin and expects what the twin printed and wrote on Flink 2.3."""
    twin = fixture.parent / _meta(fixture)["twin"]
    assert "twin" not in _meta(twin), "a twin is a Flink 2.3 program"

    def files(root):
        return {p.relative_to(root): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()} if root.is_dir() else {}
    # the same records (two print sinks of one streaming job interleave differently from run to run)
    assert flink_records((fixture / "expected_stdout.txt").read_text()) == flink_records((twin / "expected_stdout.txt").read_text())
    assert files(fixture / "expected_files") == files(twin / "expected_files")
    assert files(fixture / "data") == files(twin / "data")
