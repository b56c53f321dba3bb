"""Flink 1.9-1.13's Table API (connect() descriptors, insert_into/sql_update + t_env.execute,
scan, get_configuration().set_string, BatchTableEnvironment): read into the same program model
as the modern API, converted as the modern form is.

The legacy fixtures of fixtures/table/ (those with a "twin" in fixture.json) run on Spark in
tests/test_table_fixtures.py against what their modern twin printed on Flink 2.3; here, their
conversion is the twin's, and the model's readings and refusals one by one."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import libcst as cst
import pytest
from test_pyflink_streaming import fake_kafka  # noqa: F401  (a pytest fixture)
from test_table_kafka import run_awaited_together

from flink2spark.rules.table._program import tables
from flink2spark.transpiler.engine import convert_source
from flink2spark.transpiler.infer import Resolver
from flink2spark.transpiler.models import MODELS

ROOT = Path(__file__).resolve().parent.parent / "fixtures" / "table"
LEGACY = sorted(p for p in ROOT.iterdir() if (p / "fixture.json").is_file() and "twin" in json.loads((p / "fixture.json").read_text()))

HEAD = (
    "from pyflink.table import BatchTableEnvironment, DataTypes, EnvironmentSettings\n"
    "from pyflink.table.descriptors import FileSystem, Json, Kafka, OldCsv, Schema\n"
    "t_env = BatchTableEnvironment.create(environment_settings=EnvironmentSettings.new_instance().in_batch_mode().build())\n"
)
SCHEMA = ".with_schema(Schema().field('a', DataTypes.BIGINT()).field('b', DataTypes.DOUBLE()))"


def _code(text: str) -> list[str]:
    """The statements of a converted program: no docstring, comments, nor the lines creating the
    session (a legacy program makes one for its pyflink.dataset environment too)."""
    body = cst.parse_module(text)
    if body.body and isinstance(body.body[0], cst.SimpleStatementLine) and isinstance(body.body[0].body[0], cst.Expr):
        body = body.with_changes(body=body.body[1:])
    lines = [line for line in body.code.splitlines() if line.strip() and not line.strip().startswith("#")]
    return [line for line in lines if not re.search(r"= SparkSession\.builder\.getOrCreate\(\)", line)]


@pytest.mark.parametrize("fixture", LEGACY, ids=[p.name for p in LEGACY])
def test_a_legacy_fixture_converts_to_its_twins_spark_code(fixture):
    twin = ROOT / json.loads((fixture / "fixture.json").read_text())["twin"]
    legacy = convert_source((fixture / "input.py").read_text(), "input.py").output
    modern = convert_source((twin / "input.py").read_text(), "input.py").output
    assert "TODO(flink2spark)" not in legacy
    assert _code(legacy) == _code(modern)


def _convert(body: str) -> str:
    return convert_source(HEAD + body, "job.py").output


def _catalog(body: str):
    model = tables(Resolver(cst.parse_module(HEAD + body), MODELS["pyflink"]))
    return model.catalog, model.problems


def test_old_csv_reads_as_a_csv_table_without_quote_character():
    catalog, problems = _catalog(
        "t_env.connect(FileSystem().path('/in.csv')).with_format(OldCsv().field_delimiter('|').ignore_parse_errors())"
        + SCHEMA + ".in_append_mode().register_table_source('src')\n"
    )
    assert problems == {}
    table = catalog["src"]
    assert table.connector == "filesystem" and table.columns == (("a", "BIGINT"), ("b", "DOUBLE"))
    assert dict(table.options) == {"connector": "filesystem", "path": "/in.csv", "format": "csv",
                                   "csv.disable-quote-character": "true", "csv.field-delimiter": "|",
                                   "csv.ignore-parse-errors": "true", "sink.legacy-csv": "true"}


def test_old_csv_with_a_quote_character_quotes():
    catalog, _ = _catalog(
        "t_env.connect(FileSystem().path('/in.csv')).with_format(OldCsv().quote_character(\"'\"))"
        + SCHEMA + ".create_temporary_table('src')\n"
    )
    assert dict(catalog["src"].options)["csv.quote-character"] == "'"
    assert "csv.disable-quote-character" not in catalog["src"].options


@pytest.mark.parametrize("call,why", [
    ("line_delimiter('\\r\\n')", "OldCsv().line_delimiter()"),
    ("field('x', DataTypes.BIGINT())", "format fields that are not the schema's"),
])
def test_old_csv_options_spark_has_no_same_form_for_are_refused(call, why):
    body = (f"t_env.connect(FileSystem().path('/in.csv')).with_format(OldCsv().{call})" + SCHEMA
            + ".create_temporary_table('src')\nt_env.from_path('src').execute().print()\n")
    catalog, problems = _catalog(body)
    assert "src" not in catalog and why in problems["src"]
    assert "TODO(flink2spark): F2S305 connect()...create_temporary_table()" in _convert(body)


def test_old_csv_ignore_first_line_skips_each_files_header_on_spark(spark, tmp_path):
    # Flink 1.x's legacy csv source skipped the first line of each file (CsvInputFormat's
    # skipFirstLineAsHeader, at the start of a file); Spark's header option does, with the schema given
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "part-1.csv").write_text("a,b\n1,x\n2,y\n")
    (folder / "part-2.csv").write_text("a,b\n3,z\n")
    out = convert_source(
        HEAD + f"t_env.connect(FileSystem().path({str(folder)!r})).with_format(OldCsv().ignore_first_line())"
        ".with_schema(Schema().field('a', DataTypes.BIGINT()).field('b', DataTypes.STRING()))"
        ".create_temporary_table('src')\n"
        "t_env.from_path('src').select('a, b').execute().print()\n", "job.py").output
    assert "TODO(flink2spark)" not in out and "header" in out, out
    exec(compile(out, "job.py", "exec"), {})
    assert sorted(tuple(r) for r in spark.table("src").collect()) == [(1, "x"), (2, "y"), (3, "z")]
    spark.catalog.dropTempView("src")


def test_old_csv_ignore_first_line_of_a_table_also_written_is_refused():
    body = ("t_env.connect(FileSystem().path('/io.csv')).with_format(OldCsv().ignore_first_line())" + SCHEMA
            + ".create_temporary_table('t')\n"
            "t_env.from_path('t').insert_into('t')\nt_env.execute('job')\n")
    assert "ignore_first_line() of a table the program also writes" in _convert(body)


def test_a_kafka_descriptor_becomes_a_kafka_table_of_the_sql_options():
    catalog, problems = _catalog(
        "t_env.connect(Kafka().version('universal').topic('clicks').property('bootstrap.servers', 'k:9092')"
        ".start_from_earliest()).with_format(Json().fail_on_missing_field(False)"
        ".schema(DataTypes.ROW([DataTypes.FIELD('b', DataTypes.DOUBLE()), DataTypes.FIELD('a', DataTypes.BIGINT())])))" + SCHEMA
        + ".in_append_mode().create_temporary_table('clicks')\n"
    )
    assert problems == {}
    assert catalog["clicks"].connector == "kafka"
    assert dict(catalog["clicks"].options) == {
        "connector": "kafka", "topic": "clicks", "properties.bootstrap.servers": "k:9092",
        "scan.startup.mode": "earliest-offset", "format": "json", "json.fail-on-missing-field": "false"}


KAFKA_TABLES = "".join(
    f"t_env.connect(Kafka().version('universal').topic('{name}').property('bootstrap.servers', 'k:9092')"
    ".start_from_earliest()).with_format(Json().fail_on_missing_field(True)"
    ".schema(DataTypes.ROW([DataTypes.FIELD('b', DataTypes.DOUBLE()), DataTypes.FIELD('a', DataTypes.BIGINT())])))"
    + SCHEMA + f".in_append_mode().create_temporary_table('{name}')\n" for name in ("clicks", "out", "out2"))


def test_a_kafka_descriptor_table_is_unbounded_and_its_insert_a_streaming_query_awaited_as_execute_waits():
    catalog, _ = _catalog(KAFKA_TABLES)
    assert not catalog["clicks"].bounded
    out = _convert(KAFKA_TABLES + "t_env.from_path('clicks').insert_into('out')\nt_env.execute('job')\n")
    assert "TODO" not in out, out
    assert '.writeStream.format("kafka")' in out and ".write.format(" not in out
    assert out.count(".start().awaitTermination()") == 1
    assert "'json.fail-on-missing-field' true" in out  # the NOTE: Flink fails the job where Spark reads NULL


def test_several_streaming_inserts_of_one_execute_start_a_query_each_awaited_together_on_spark(spark, fake_kafka):
    # one Flink job of two inserts, run by execute(): awaited one by one, the second Spark query
    # would never start; each starts at its insert and execute() waits for them all
    publish, written, _, drain = fake_kafka
    publish("clicks", ['{"b": 1.5, "a": 1}', '{"b": 2.0, "a": 2}', '{"b": 4.0, "a": 3}'])
    out = _convert(KAFKA_TABLES + "t_env.from_path('clicks').insert_into('out')\n"
                   "t_env.sql_update('INSERT INTO out2 SELECT a, b * 2 FROM clicks WHERE a > 1')\nt_env.execute('job')\n")
    rows = run_awaited_together(spark, out, drain, written, "clicks", ("a", "b"))
    assert rows == {"out": [(1, 1.5), (2, 2.0), (3, 4.0)], "out2": [(2, 4.0), (3, 8.0)]}


def test_several_streaming_inserts_of_a_job_whose_execute_is_in_another_function_are_a_todo():
    out = _convert(KAFKA_TABLES + "def build(env):\n    env.from_path('clicks').insert_into('out')\n"
                   "    env.sql_update('INSERT INTO out2 SELECT * FROM clicks')\n\n\nbuild(t_env)\nt_env.execute('job')\n")
    assert out.count("TODO(flink2spark): F2S300") == 2 and "a t_env.execute() in another function" in out
    assert "writeStream" not in out


def test_streaming_inserts_of_two_functions_each_with_its_execute_are_each_awaited():
    # two jobs of one insert each (two functions of the program, each run by its own execute())
    body = "".join(f"def job_{n}():\n    t_env.from_path('clicks').insert_into('{n}')\n    t_env.execute('{n}')\n\n\n"
                   for n in ("out", "out2"))
    out = _convert(KAFKA_TABLES + body)
    assert "TODO" not in out and out.count(".start().awaitTermination()") == 2, out
    assert "awaitAnyTermination" not in out


SINK = ("t_env.connect(FileSystem().path('/out')).with_format(OldCsv())" + SCHEMA + ".create_temporary_table('out')\n"
        "t_env.connect(FileSystem().path('/in.csv')).with_format(OldCsv())" + SCHEMA + ".create_temporary_table('src')\n")


def test_a_json_format_schema_other_than_the_tables_is_refused():
    _, problems = _catalog(
        "t_env.connect(Kafka().topic('t')).with_format(Json().schema(DataTypes.ROW([DataTypes.FIELD('a', DataTypes.INT())])))"
        + SCHEMA + ".create_temporary_table('t')\n")
    assert problems["t"] == "format fields that are not the schema's"


def test_insert_into_followed_by_execute_writes_at_the_insert():
    out = _convert(SINK + "t_env.from_path('src').insert_into('out')\nt_env.execute('job')\n")
    assert 't_env.table("src").write.insertInto("out")' in out
    assert "execute(" not in out and "TODO" not in out


def test_insert_into_with_no_execute_after_it_is_not_a_write():
    # Flink writes nothing of an insert no execute() runs: the converted program must not write
    out = _convert(SINK + "t_env.execute('job')\nt_env.from_path('src').insert_into('out')\n")
    assert "insertInto" not in out
    assert "F2S300 insert_into(): no t_env.execute() follows it" in out


def test_insert_into_in_a_helper_the_caller_executes_after():
    out = _convert(SINK + "def build(env):\n    env.from_path('src').insert_into('out')\n\n\nbuild(t_env)\nt_env.execute('job')\n")
    assert 'write.insertInto("out")' in out


def test_sql_update_insert_without_execute_keeps_a_todo_and_its_ddl_converts():
    out = _convert(
        "t_env.sql_update(\"CREATE TABLE out_t (a BIGINT) WITH ('connector' = 'print')\")\n"
        "t_env.sql_update('INSERT INTO out_t SELECT 1')\n"
    )
    assert "F2S300 sql_update(INSERT ...): no t_env.execute() follows it" in out
    assert "CREATE TABLE" not in out  # a print table needs no Spark table


def test_the_result_of_execute_used_keeps_a_todo():
    out = _convert(SINK + "t_env.from_path('src').insert_into('out')\nresult = t_env.execute('job')\n")
    assert "F2S300 the result of TableEnvironment.execute()" in out


def test_a_configuration_variable_of_setters_is_dropped_with_notes():
    out = _convert("config = t_env.get_config().get_configuration()\nconfig.set_string('pipeline.name', 'x')\n"
                   "config.set_integer('parallelism.default', 1)\n")
    assert "config" not in out.replace("# NOTE", "")
    assert "F2S304 Flink setting dropped: pipeline.name" in out and "F2S304 Flink setting dropped: parallelism.default" in out


def test_table_api_calls_of_unknown_receivers_name_the_table_api():
    # an environment kept in a container (an attribute of the class's own is followed: test_table_receivers.py)
    out = convert_source(
        "from pyflink.table import EnvironmentSettings, TableEnvironment\n\n\nclass Job:\n    def __init__(self):\n"
        "        self.envs = [TableEnvironment.create(EnvironmentSettings.in_batch_mode())]\n\n"
        "    def run(self):\n        self.envs[0].execute_sql('SELECT 1')\n", "job.py").output
    assert "looks like Flink's PyFlink Table API" in out


def test_a_legacy_csv_source_without_quote_reads_quotes_as_text_on_spark(spark, tmp_path):
    # OldCsv parses no quote character: 1,"x" is the text "x" with its quotes; so does Spark with quote ''
    path = tmp_path / "in.csv"
    path.write_text('1,"x"\n2,y\n')
    out = convert_source(
        HEAD + f"t_env.connect(FileSystem().path({str(path)!r})).with_format(OldCsv())"
        ".with_schema(Schema().field('a', DataTypes.BIGINT()).field('b', DataTypes.STRING()))"
        ".create_temporary_table('src')\n", "job.py").output
    exec(compile(out, "job.py", "exec"), {})  # its SparkSession.builder.getOrCreate() is this session
    assert sorted(tuple(r) for r in spark.table("src").collect()) == [(1, '"x"'), (2, "y")]
    spark.catalog.dropTempView("src")


def test_a_group_window_in_strings_converts_as_its_expression_dsl_form():
    """Flink 1.x wrote group windows with strings (``Tumble.over("15.minutes").on("ts")``,
    ``group_by("w, usr")``, ``select("usr, w.start as s, usr.count as n")``): they convert to the
    Spark code of the same window in the expression DSL (whose results are checked elsewhere)."""
    from flink2spark.transpiler.engine import convert_source

    head = (
        "from pyflink.table import EnvironmentSettings, TableEnvironment\n"
        "from pyflink.table.expressions import col, lit\n"
        "from pyflink.table.window import Tumble\n\n"
        "t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())\n"
        "clicks = t_env.from_elements([('a', 1)], ['usr', 'n'])\n"
    )
    legacy = convert_source(head + "clicks.window(Tumble.over('15.minutes').on('ts').alias('w')).group_by('w, usr')"
                            ".select('usr, w.start as s, w.end, usr.count as n').execute().print()\n", "a.py")
    modern = convert_source(head + "clicks.window(Tumble.over(lit(15).minutes).on(col('ts')).alias('w')).group_by(col('w'), col('usr'))"
                            ".select(col('usr'), col('w').start.alias('s'), col('w').end, col('usr').count.alias('n')).execute().print()\n", "b.py")
    assert [m.message for m in legacy.markers if m.severity == "todo"] == []
    assert legacy.output.splitlines()[-6:] == modern.output.splitlines()[-6:]
    assert 'F.window(F.col("ts"), "15 minutes")' in legacy.output
    rows = convert_source(head + "clicks.window(Tumble.over('2.rows').on('ts').alias('w')).group_by('w').select('n.sum').execute().print()\n", "c.py")
    assert any("Tumble window: over('2.rows'): a row-count window" in m.message for m in rows.markers), rows.markers
    modern = convert_source(head + "from pyflink.table.expressions import row_interval\n"
                            "clicks.window(Tumble.over(row_interval(2)).on(col('ts')).alias('w')).group_by(col('w'))"
                            ".select(col('n').sum).execute().print()\n", "d.py")
    assert any("Tumble window: over(row_interval(2)): a row-count window" in m.message for m in modern.markers), modern.markers


def test_alias_of_one_string_of_names_renames_each_column_as_flink_1x_read_it():
    # Flink 1.x read alias("a, b") as an expression list; toDF("a, b") would fail on Spark
    out = _convert("t = t_env.from_elements([(1, 'x')], ['n', 'w']).alias('id, word')\nt.execute().print()\n")
    assert '.toDF("id", "word")' in out and "TODO" not in out
    assert "NOTE(flink2spark): F2S309 Table.alias() of one string of names" in out  # Flink 2.3: one column "id, word"
    # the program model knows the names too: the columns read after the alias have their types
    out = _convert("t = t_env.from_elements([(1, 'x')], ['n', 'w']).alias('id, word')\n"
                   "t.group_by(t.word).select(t.word, t.id.sum).execute().print()\n")
    assert 'F.sum(F.col("id"))' in out and "TODO" not in out, out
    out = _convert("t = t_env.from_elements([(1, 'x')], ['n', 'w']).alias('id as k, word')\nt.execute().print()\n")
    assert "TODO(flink2spark): F2S300 Table.alias() of names that are not plain column names" in out


def _legacy_ddl(options: str) -> str:
    return f"t_env.execute_sql(\"CREATE TABLE src (a BIGINT, b DOUBLE) WITH ({options})\")\n"


def test_legacy_ddl_properties_declare_the_table_oldcsv_declares():
    # Flink 1.10's 'connector.type' properties of a filesystem csv table: Flink 2.3 still reads them
    # with its legacy csv source (fixture pallets_legacy_csv_ddl), which OldCsv() of connect() was
    ddl, ddl_problems = _catalog(_legacy_ddl(
        "'connector.type' = 'filesystem', 'connector.path' = '/in.csv', 'format.type' = 'csv',"
        " 'format.field-delimiter' = '|', 'format.ignore-parse-errors' = 'true', 'format.property-version' = '1'"))
    descriptor, _ = _catalog(
        "t_env.connect(FileSystem().path('/in.csv')).with_format(OldCsv().field_delimiter('|').ignore_parse_errors())"
        + SCHEMA + ".create_temporary_table('src')\n")
    assert ddl_problems == {}
    legacy = dict(ddl["src"].options)
    assert legacy.pop("csv.legacy-source") == "true"
    oldcsv = dict(descriptor["src"].options)
    assert oldcsv.pop("sink.legacy-csv") == "true"  # written, OldCsv()'s table is Flink 1.x's legacy csv sink
    assert legacy == oldcsv
    assert ddl["src"].columns == descriptor["src"].columns and ddl["src"].bounded


def test_legacy_kafka_ddl_properties_declare_the_kafka_table_of_the_sql_options():
    catalog, problems = _catalog(_legacy_ddl(
        "'connector.type' = 'kafka', 'connector.version' = 'universal', 'connector.topic' = 'payments',"
        " 'connector.properties.bootstrap.servers' = 'k:9092', 'connector.properties.group.id' = 'g',"
        " 'connector.startup-mode' = 'earliest-offset', 'format.type' = 'json', 'format.derive-schema' = 'true',"
        " 'update-mode' = 'append'"))
    assert problems == {}
    assert dict(catalog["src"].options) == {
        "connector": "kafka", "format": "json", "json.timestamp-format.standard": "RFC-3339", "topic": "payments",
        "properties.bootstrap.servers": "k:9092", "properties.group.id": "g", "scan.startup.mode": "earliest-offset"}
    assert not catalog["src"].bounded
    out = _convert(_legacy_ddl(
        "'connector.type' = 'kafka', 'connector.topic' = 'payments', 'connector.properties.bootstrap.servers' = 'k:9092',"
        " 'connector.startup-mode' = 'earliest-offset', 'format.type' = 'json'")
        + "t_env.from_path('src').execute().print()\n")
    assert "TODO" not in out and 'readStream.format("kafka")' in out, out


@pytest.mark.parametrize("options,why", [
    ("'connector.type' = 'elasticsearch', 'connector.index' = 't', 'format.type' = 'json'",
     "legacy properties 'connector.type' = 'elasticsearch', 'format.type' = 'json'"),
    ("'connector.type' = 'kafka', 'connector.topic' = 't', 'format.type' = 'json', 'format.json-schema' = '{}'",
     "legacy properties: 'format.json-schema'"),
    ("'connector.type' = 'kafka', 'connector.topic' = 't', 'format.type' = 'json', 'update-mode' = 'upsert'",
     "legacy properties: 'update-mode' = 'upsert'"),
    ("'connector.type' = 'filesystem', 'connector.path' = '/in.csv', 'format.type' = 'csv', 'format.line-delimiter' = ';'",
     "legacy properties: 'format.line-delimiter'"),
    ("'connector.type' = 'filesystem', 'connector.path' = '/in.csv', 'format.type' = 'csv',"
     " 'format.fields.0.name' = 'b', 'format.fields.1.name' = 'a'", "legacy properties: format fields that are not the table's columns"),
])
def test_legacy_ddl_properties_without_the_same_spark_form_keep_a_todo(options, why):
    body = _legacy_ddl(options) + "t_env.from_path('src').execute().print()\n"
    catalog, problems = _catalog(body)
    assert "src" not in catalog and why in problems["src"]
    assert f"TODO(flink2spark): F2S302 execute_sql(): CREATE TABLE of Flink 1.10's {why}" in _convert(body)


def test_a_legacy_ddl_table_the_program_writes_keeps_a_todo():
    body = (_legacy_ddl("'connector.type' = 'filesystem', 'connector.path' = '/io.csv', 'format.type' = 'csv'")
            + "t_env.execute_sql('INSERT INTO src SELECT a + 1, b FROM src')\n")
    out = _convert(body)
    assert "TODO(flink2spark)" in out and "legacy 'connector.type' properties that the program writes" in out, out


def _views(rowtime: str = ".rowtime(Rowtime().timestamps_from_field('ts').watermarks_periodic_bounded(5000))",
           schema: str = "{type: 'object', properties: {page: {type: 'string'}, ts: {type: 'string', format: 'date-time'}}}",
           connector: str = "Kafka().version('universal').topic('views').property('bootstrap.servers', 'k:9092').start_from_earliest()") -> str:
    return (f"from pyflink.table.descriptors import Rowtime\n"
            f"t_env.connect({connector}).with_format(Json().json_schema({schema!r}))"
            ".with_schema(Schema().field('page', DataTypes.STRING()).field('rowtime', DataTypes.TIMESTAMP(3))"
            f"{rowtime}).in_append_mode().create_temporary_table('views')\n")


def test_a_json_schema_and_a_rowtime_from_a_field_declare_the_column_its_watermark_and_the_field_it_reads():
    catalog, problems = _catalog(_views())
    assert problems == {}
    table = catalog["views"]
    assert table.columns == (("page", "STRING"), ("rowtime", "TIMESTAMP_NTZ"))
    assert table.watermark == ("rowtime", "5 seconds") and not table.bounded
    assert table.options["schema.rowtime.timestamps.from"] == "rowtime=ts"
    assert table.options["json.timestamp-format.standard"] == "RFC-3339"


@pytest.mark.parametrize("body, why", [
    (_views(schema="{type: 'object', properties: {page: {type: 'number'}, ts: {type: 'string', format: 'date-time'}}}"),
     "Json().json_schema() field 'page' of {\"type\": \"number\"}"),
    (_views(schema="{type: 'object', properties: {page: {type: 'string'}, ts: {type: 'string'}}}"),
     "format fields that are not the schema's"),
    (_views(rowtime=".rowtime(Rowtime().timestamps_from_field('ts').watermarks_periodic_ascending())"),
     "Rowtime().watermarks_periodic_ascending()"),
    (_views(connector="FileSystem().path('/in')"),
     "Schema().rowtime() of a table other than a Kafka table in the json format"),
])
def test_json_schemas_and_rowtimes_without_the_same_spark_form_are_refused(body, why):
    _, problems = _catalog(body)
    assert problems["views"] == why


WINDOW = (".window(Tumble.over('5.minutes').on('{on}').alias('w')).group_by('w, page')"
          ".select('page, w.end as ends, page.count as n').execute().print()\n")


def test_a_window_on_the_rowtime_of_a_scanned_kafka_table_is_a_streaming_query_finalised_by_the_watermark():
    out = _convert(_views() + "from pyflink.table.window import Tumble\n" + "t_env.scan('views')" + WINDOW.format(on="rowtime"))
    assert "TODO" not in out, out
    flat = re.sub(r"\s+", "", out)
    for part in ("CAST(value.ts AS TIMESTAMP) AS rowtime", '.withWatermark("rowtime", "5 seconds")',
                 'F.window(F.col("rowtime"), "5 minutes")', '.outputMode("append")', "writeStream.foreachBatch"):
        assert re.sub(r"\s+", "", part) in flat, part


def test_a_window_of_a_scanned_kafka_table_on_another_column_or_after_a_projection_keeps_a_todo():
    body = _views() + "from pyflink.table.window import Tumble\n"
    for chain in ("t_env.scan('views')" + WINDOW.format(on="page"),
                  "t_env.scan('views').select('page, rowtime')" + WINDOW.format(on="rowtime")):
        out = _convert(body + chain)
        assert "F2S300 window() on an unbounded table" in out and "F.window(" not in out, out


def test_rfc_3339_timestamps_of_a_legacy_json_schema_read_as_flink_1x_reads_them_on_spark(spark):
    out = _convert(_views() + "t_env.scan('views').execute().print()\n")
    expression = ast.literal_eval(re.search(r'"from_json\(.*\) AS value"', out).group(0))[: -len(" AS value")]
    rows = spark.createDataFrame(
        [('{"page": "/a", "ts": "2024-03-01T10:00:05Z"}',), ('{"page": "/b", "ts": "2024-03-01T10:00:05.25Z"}',)],
        "value STRING").selectExpr(f"{expression} AS v").selectExpr("v.page", "CAST(v.ts AS STRING) AS ts").collect()
    # Flink 1.x's RFC3339_TIMESTAMP_FORMAT: the wall clock of the text, the Z dropped, up to 9 fraction digits
    assert [(r.page, r.ts) for r in rows] == [("/a", "2024-03-01 10:00:05"), ("/b", "2024-03-01 10:00:05.25")]


CSV_SINK = "from pyflink.table import CsvTableSink\nt_env.register_table_sink('out', CsvTableSink({args}))\n"


def test_a_registered_csv_table_sink_is_the_table_an_old_csv_connect_sink_declares():
    sink, problems = _catalog(CSV_SINK.format(args="['a', 'b'], [DataTypes.BIGINT(), DataTypes.DOUBLE()], '/out', '|'"))
    descriptor, _ = _catalog("t_env.connect(FileSystem().path('/out')).with_format(OldCsv().field_delimiter('|'))"
                             + SCHEMA + ".create_temporary_table('out')\n")
    assert problems == {}
    assert sink["out"].columns == descriptor["out"].columns
    assert dict(sink["out"].options) == dict(descriptor["out"].options)


CSV_SOURCE = "from pyflink.table import CsvTableSource\nt_env.register_table_source('src', CsvTableSource({args}))\n"
LEGACY_DDL = ("t_env.execute_sql(\"CREATE TABLE src (a BIGINT, b DOUBLE) WITH ('connector.type' = 'filesystem', "
              "'connector.path' = '/in.csv', 'format.type' = 'csv'{extra})\")\n")


@pytest.mark.parametrize("args, extra", [
    ("'/in.csv', ['a', 'b'], [DataTypes.BIGINT(), DataTypes.DOUBLE()]", ""),
    # PyFlink 1.10-1.13's CsvTableSource(...) sets the Java builder's options the legacy properties set too
    ("'/in.csv', ['a', 'b'], [DataTypes.BIGINT(), DataTypes.DOUBLE()], '|', '\\n', None, True, '#', True",
     ", 'format.field-delimiter' = '|', 'format.line-delimiter' = '\\n', 'format.ignore-first-line' = 'true', "
     "'format.comment-prefix' = '#', 'format.ignore-parse-errors' = 'true'"),
    ("source_path='/in.csv', field_names=['a', 'b'], field_types=[DataTypes.BIGINT(), DataTypes.DOUBLE()], quote_character='*'",
     ", 'format.quote-character' = '*'"),
])
def test_a_registered_csv_table_source_is_the_table_of_the_legacy_csv_properties(args, extra):
    source, problems = _catalog(CSV_SOURCE.format(args=args))
    legacy, _ = _catalog(LEGACY_DDL.format(extra=extra))
    assert problems == {}
    assert source["src"].columns == legacy["src"].columns
    assert dict(source["src"].options) == dict(legacy["src"].options)
    converted = _convert(CSV_SOURCE.format(args=args) + "t_env.scan('src').execute().print()\n")
    assert "TODO" not in converted and '.createOrReplaceTempView("src")' in converted, converted


@pytest.mark.parametrize("body, why", [
    (CSV_SINK.format(args="['a'], [DataTypes.BIGINT()], '/out', ',', 4"), "CsvTableSink() of a number of files"),
    (CSV_SINK.format(args="['a'], [DataTypes.BIGINT()], '/out', write_mode=WriteMode.OVERWRITE"), "CsvTableSink() of a write mode"),
    (CSV_SINK.format(args="['a', 'b'], [DataTypes.BIGINT()], '/out'"),
     "CsvTableSink() of field names and types that are not lists of the same length"),
    (CSV_SOURCE.format(args="'/in.csv', ['a'], [DataTypes.BIGINT()], empty_column_as_null=True"),
     "CsvTableSource(empty_column_as_null=True)"),
    (CSV_SOURCE.format(args="'/in.csv', ['a'], [DataTypes.BIGINT()], line_delim='\\r\\n'"),
     "CsvTableSource() of a line delimiter other than"),
    (CSV_SOURCE.format(args="'/in.csv', ['a'], [DataTypes.BIGINT()], ignore_comments='//'"),
     "CsvTableSource() of a comment prefix other than '#'"),
    (CSV_SOURCE.format(args="'/in.csv', ['a', 'b'], [DataTypes.BIGINT()]"),
     "CsvTableSource() of field names and types that are not lists of the same length"),
])
def test_csv_table_sinks_and_sources_without_the_same_spark_form_keep_a_todo(body, why):
    name, method = ("out", "register_table_sink") if "CsvTableSink(" in body else ("src", "register_table_source")
    _, problems = _catalog(body)
    assert problems[name].startswith(why)
    assert f"TODO(flink2spark): F2S305 {method}(): {why}" in _convert(body)


def test_register_table_is_a_temporary_view_of_the_table():
    converted = _convert("t = t_env.from_elements([(1, 2.0)], ['a', 'b'])\nt_env.register_table('v', t)\n"
                         "t_env.sql_query('SELECT a FROM v').execute().print()\n")
    assert "TODO" not in converted and 't.createOrReplaceTempView("v")' in converted, converted
    kept = _convert("t_env.register_table('v', 'not a table')\n")
    assert "TODO(flink2spark): F2S300 register_table() with other arguments than (name, table)" in kept, kept


def _csv_kafka(fmt: str, name: str = "taps") -> str:
    return (f"from pyflink.table.descriptors import Csv\n"
            f"t_env.connect(Kafka().version('universal').topic('{name}').property('bootstrap.servers', 'k:9092')"
            f".start_from_earliest()).with_format({fmt})" + SCHEMA + f".in_append_mode().create_temporary_table('{name}')\n")


def test_csv_line_delimiter_of_a_kafka_table_read_is_the_table_without_it():
    # Flink 1.x's csv format ends the records it writes with the line delimiter; its deserializer
    # takes no line delimiter (a Kafka record is one row): the view reads as without it
    read = "t_env.from_path('taps').execute().print()\n"
    with_it = _convert(_csv_kafka("Csv().line_delimiter('\\r\\n').derive_schema()") + read)
    without = _convert(_csv_kafka("Csv().derive_schema()") + read)
    assert "TODO" not in with_it and "from_csv(" in with_it, with_it
    assert _code(with_it) == _code(without)


def test_csv_line_delimiter_of_a_table_written_or_not_kafka_keeps_a_todo():
    kafka_sink = _convert(KAFKA_TABLES + _csv_kafka("Csv().line_delimiter('\\r\\n')", "sunk")
                          + "t_env.from_path('clicks').insert_into('sunk')\nt_env.execute('job')\n")
    assert "TODO(flink2spark): F2S305" in kafka_sink and "csv sink option 'line-delimiter'" in kafka_sink, kafka_sink
    _, problems = _catalog("from pyflink.table.descriptors import Csv\n"
                           "t_env.connect(FileSystem().path('/in.csv')).with_format(Csv().line_delimiter('\\r\\n'))"
                           + SCHEMA + ".create_temporary_table('src')\n")
    assert problems["src"] == "Csv().line_delimiter() of a table other than a Kafka table"


def test_a_proctime_field_of_a_connect_schema_is_the_ddls_proctime_column():
    # Schema().field('pt', TIMESTAMP).proctime(): no field of the format, the processing time
    # (the program model's computed column of ``pt AS PROCTIME()``; fixture legacy_kiosk_taps_kafka_proctime
    # converts to its DDL twin's code)
    proc = "from pyflink.table.descriptors import Csv\n" + (
        "t_env.connect(Kafka().version('universal').topic('taps').property('bootstrap.servers', 'k:9092')"
        ".start_from_earliest()).with_format(Json())"
        ".with_schema(Schema().field('a', DataTypes.BIGINT()).field('pt', DataTypes.TIMESTAMP(3)).proctime()"
        ".field('b', DataTypes.DOUBLE())).create_temporary_table('taps')\n")
    legacy, problems = _catalog(proc)
    modern, _ = _catalog("t_env.execute_sql(\"CREATE TABLE taps (a BIGINT, pt AS PROCTIME(), b DOUBLE) WITH ("
                         "'connector' = 'kafka', 'topic' = 'taps', 'properties.bootstrap.servers' = 'k:9092', "
                         "'scan.startup.mode' = 'earliest-offset', 'format' = 'json')\")\n")
    assert problems == {}
    for field in ("columns", "computed", "order", "watermark", "bounded"):
        assert getattr(legacy["taps"], field) == getattr(modern["taps"], field), field
    assert legacy["taps"].proctime_watermark() == "pt"
    _, problems = _catalog(proc.replace("Kafka().version('universal').topic('taps').property('bootstrap.servers', 'k:9092')"
                                        ".start_from_earliest()", "FileSystem().path('/in')"))
    assert problems["taps"] == "Schema().proctime() of a table other than a Kafka table"
    _, problems = _catalog(proc.replace("DataTypes.TIMESTAMP(3)).proctime()", "DataTypes.STRING()).proctime()"))
    assert problems["taps"] == "Schema().proctime() of a STRING column"


def test_a_custom_connector_descriptor_keeps_a_todo_naming_it():
    body = ("from pyflink.table.descriptors import CustomConnectorDescriptor\n"
            "t_env.connect(CustomConnectorDescriptor('jdbc', 1, False).property('connector.table', 't'))"
            + SCHEMA + ".register_table_sink('sink')\n")
    _, problems = _catalog(body)
    assert problems["sink"] == "a descriptor CustomConnectorDescriptor() other than FileSystem()/Kafka()"
    assert "TODO(flink2spark): F2S305 connect()...register_table_sink(): a descriptor CustomConnectorDescriptor()" in _convert(body)


def test_a_stream_into_a_legacy_csv_sink_is_sparks_file_sink_of_its_table_on_spark(spark, fake_kafka, tmp_path):
    # Flink 1.x's legacy csv sink (OldCsv() of a FileSystem() descriptor, CsvTableSink) writes each
    # record as it comes: "kiosk|amount", no quotes; Spark's file sink of the csv table writes the
    # same lines, in part files per micro-batch
    publish, _, _, drain = fake_kafka
    publish("taps", ['{"kiosk": "k1", "amount": 50}', '{"kiosk": "k2", "amount": 5}', '{"kiosk": "k 3", "amount": 12}'])
    body = ("t_env.connect(Kafka().version('universal').topic('taps').start_from_earliest().property('bootstrap.servers', 'k:9092'))"
            ".with_format(Json().derive_schema()).with_schema(Schema().field('kiosk', DataTypes.STRING())"
            ".field('amount', DataTypes.BIGINT())).in_append_mode().create_temporary_table('taps')\n"
            f"t_env.connect(FileSystem().path({str(tmp_path / 'big')!r})).with_format(OldCsv().field_delimiter('|'))"
            ".with_schema(Schema().field('kiosk', DataTypes.STRING()).field('amount', DataTypes.BIGINT()))"
            ".create_temporary_table('big_taps')\n"
            "t_env.scan('taps').where('amount > 10').insert_into('big_taps')\nt_env.execute('taps')\n")
    out = _convert(body)
    assert "TODO" not in out and '.toTable("big_taps").awaitTermination()' in out, out
    assert "F2S309 a stream into Flink 1.x's legacy csv sink" in out
    try:
        exec(compile(out, "job.py", "exec"), {})
        drain(spark)
    finally:
        spark.catalog.dropTempView("taps")
        spark.sql("DROP TABLE IF EXISTS big_taps")
    lines = sorted(line for part in (tmp_path / "big").glob("part-*") for line in part.read_text().splitlines())
    assert lines == ["k 3|12", "k1|50"]
    # a modern filesystem table (Flink 2.x's sink keeps in-progress files until a checkpoint) stays a TODO
    modern = _convert(body.replace(
        f"t_env.connect(FileSystem().path({str(tmp_path / 'big')!r})).with_format(OldCsv().field_delimiter('|'))"
        ".with_schema(Schema().field('kiosk', DataTypes.STRING()).field('amount', DataTypes.BIGINT()))"
        ".create_temporary_table('big_taps')\n",
        "t_env.execute_sql(\"CREATE TABLE big_taps (kiosk STRING, amount BIGINT) WITH ('connector' = 'filesystem', "
        "'path' = '/big', 'format' = 'csv', 'csv.field-delimiter' = '|')\")\n"))
    assert "a streaming query into a 'filesystem' table" in modern, modern
