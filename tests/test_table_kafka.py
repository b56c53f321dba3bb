"""Kafka tables -> Structured Streaming (rules/table/_kafka.py, the streaming checks of
rules/table/_sql.py, the program model's boundedness): what converts, what stays a TODO, and
the Spark side of the translations run on Spark (the fixtures orders_kafka_json_filter,
sensor_kafka_tumble_window and clicks_kafka_descriptor_table_api compare whole programs with
Flink's records)."""

from __future__ import annotations

import json
import re
import tempfile

import pytest
from test_pyflink_streaming import fake_kafka  # noqa: F401  (a pytest fixture)

from flink2spark.rules.table import _kafka, _sql
from flink2spark.transpiler.engine import convert_source

BROKERS = "'properties.bootstrap.servers' = 'k:9092'"


def kafka(columns: str, *options: str) -> _sql.TableDef:
    extra = "".join(f", {o}" for o in options)
    return _sql.create_table(f"CREATE TABLE src ({columns}) WITH ('connector' = 'kafka', {BROKERS}{extra})")


SRC = kafka("k STRING, v INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '2' SECOND",
            "'topic' = 'src'", "'format' = 'json'", "'scan.startup.mode' = 'earliest-offset'")
OTHER = _sql.create_table("CREATE TABLE dim (k STRING, name STRING) WITH ('connector' = 'filesystem', 'path' = '/d', 'format' = 'json')")
TABLES = {"src": _kafka.read_columns(SRC), "dim": OTHER}


# -- the source -----------------------------------------------------------------------------

@pytest.mark.parametrize(
    "options, wanted",
    [
        (["'topic' = 'a;b'", "'scan.startup.mode' = 'latest-offset'"], ['"subscribe", "a,b"', '"startingOffsets", "latest"']),
        (["'topic-pattern' = 'logs-.*'", "'scan.startup.mode' = 'earliest-offset'"], ['"subscribePattern", "logs-.*"']),
        (["'topic' = 'a'", "'properties.group.id' = 'g'", "'properties.auto.offset.reset' = 'earliest'"],
         ['"startingOffsets", "earliest"']),
        (["'topic' = 'a'", "'scan.startup.mode' = 'timestamp'", "'scan.startup.timestamp-millis' = '1700000000000'"],
         ['"startingTimestamp", "1700000000000"']),
        (["'topic' = 'a'", "'scan.startup.mode' = 'earliest-offset'", "'properties.security.protocol' = 'SSL'"],
         ['"kafka.security.protocol", "SSL"']),
    ],
)
def test_source_options(options, wanted):
    code, _ = _kafka.source(kafka("a INT", "'format' = 'json'", *options), (), "spark")
    for piece in wanted:
        assert piece in code
    assert '"kafka.bootstrap.servers", "k:9092"' in code


@pytest.mark.parametrize(
    "options, construct",
    [
        (["'topic' = 'a'"], "group-offsets"),  # Flink's default: the group's committed offsets
        (["'topic' = 'a'", "'scan.startup.mode' = 'specific-offsets'"], "specific-offsets"),
        (["'scan.startup.mode' = 'earliest-offset'"], "without 'topic'"),
        (["'topic' = 'a'", "'scan.startup.mode' = 'earliest-offset'", "'key.format' = 'json'", "'key.fields' = 'a'"], "key.format"),
        (["'topic' = 'a'", "'scan.startup.mode' = 'earliest-offset'", "'json.fail-on-missing-field' = 'true'",
          "'json.ignore-parse-errors' = 'true'"], "both 'true'"),
    ],
)
def test_source_options_refused(options, construct):
    with pytest.raises(_sql.Untranslatable, match=construct):
        _kafka.source(kafka("a INT", "'format' = 'json'", *options), (), "spark")


def test_fail_on_missing_field_is_a_note_on_the_records_where_the_engines_differ(spark):
    """'json.fail-on-missing-field': Flink fails the job on a record without one of the table's
    fields, where Spark's from_json gives NULL. On records with every field both read the same
    values (checked here on Spark; Flink reads such records as it does without the option)."""
    table = kafka("a INT, b STRING", "'format' = 'json'", "'topic' = 'a'", "'scan.startup.mode' = 'earliest-offset'",
                  "'json.fail-on-missing-field' = 'true'")
    code, notes = _kafka.source(table, (), "spark")
    assert any("'json.fail-on-missing-field' true" in n and "NULL" in n for n in notes)
    value = re.search(r"from_json\(CAST\(value AS STRING\), '([^']*)'", code).group(1)
    rows = spark.createDataFrame([('{"a": 1, "b": "x"}',), ('{"b": "y"}',)], "value STRING")
    got = [tuple(r) for r in rows.selectExpr(f"from_json(value, '{value}') AS v").select("v.a", "v.b").collect()]
    assert got == [(1, "x"), (None, "y")]  # the second record: Flink fails the job here (the NOTE)


def test_source_formats_and_metadata_refused():
    ok = ["'topic' = 'a'", "'scan.startup.mode' = 'earliest-offset'"]
    with pytest.raises(_sql.Untranslatable, match="format 'avro'"):
        _kafka.source(kafka("a INT", "'format' = 'avro'", *ok), (), "spark")
    with pytest.raises(_sql.Untranslatable, match="METADATA 'headers' of type MAP<STRING, STRING>"):  # Flink's is BYTES
        _kafka.source(kafka("a INT, h MAP<STRING, STRING> METADATA FROM 'headers'", "'format' = 'json'", *ok), (), "spark")
    with pytest.raises(_sql.Untranslatable, match="METADATA 'leader-epoch'"):
        _kafka.source(kafka("a INT, e INT METADATA FROM 'leader-epoch'", "'format' = 'json'", *ok), (), "spark")
    with pytest.raises(_sql.Untranslatable, match="METADATA 'timestamp' of type TIMESTAMP_NTZ"):
        _kafka.source(kafka("a INT, t TIMESTAMP(3) METADATA FROM 'timestamp'", "'format' = 'json'", *ok), (), "spark")


def _view(spark, code: str, values: list[str]):
    """The rows of a source's view over Kafka records of these values (a batch DataFrame of
    Kafka's shape stands for the topic: the same projections apply to it)."""
    projections = code[code.index(".load()") + len(".load()"):code.index(".createOrReplaceTempView")]
    records = spark.createDataFrame([(v.encode(),) for v in values], "value BINARY")
    return [tuple(r) for r in eval("records" + projections, {"records": records}).collect()]  # noqa: S307


# csv records and what Flink 2.3's csv format read from them with 'csv.ignore-parse-errors' (a
# filesystem csv table over these lines, which parses them with the csv format code of the Kafka
# connector: run by hand, printed with repr): an empty STRING field, quoted or not, is ''; an empty
# number NULL (without the option Flink fails the job there); spaces around a number trimmed, in a
# quoted string kept; doubled quotes in a quoted field are one quote.
FLINK_CSV = [
    ('1,alice,2.5,10', (1, "alice", 2.5, 10)),
    ('2,,3,', (2, "", 3.0, None)),
    ('3," spaced ",1e2,7', (3, " spaced ", 100.0, 7)),
    ('4,"a,b",-0.5,8', (4, "a,b", -0.5, 8)),
    ('5,"say ""hi""",,', (5, 'say "hi"', None, None)),
    (' 6 ,x, 4.5 , 9 ', (6, "x", 4.5, 9)),
    ('7,null,NaN,1', (7, "null", float("nan"), 1)),
    ('8,\\N,Infinity,2', (8, "\\N", float("inf"), 2)),
    ('9,"",1.0,3', (9, "", 1.0, 3)),
]


@pytest.mark.parametrize("sep", [",", ";"])
def test_csv_source_reads_what_flink_reads(spark, sep):
    options = ["'topic' = 'a'", "'scan.startup.mode' = 'earliest-offset'", "'format' = 'csv'", "'csv.ignore-parse-errors' = 'true'"]
    if sep != ",":
        options.append(f"'csv.field-delimiter' = '{sep}'")
    code, notes = _kafka.source(kafka("id INT, name STRING, amount DOUBLE, n BIGINT", *options), (), "spark")
    assert any("as NULL, as Spark does, but skips a record that is not well-formed csv" in n for n in notes)
    # the records with the other delimiter: a comma in a quoted field stays one
    values = [_resep(line, sep) for line, _ in FLINK_CSV]
    assert [repr(r) for r in _view(spark, code, values)] == [repr(row) for _, row in FLINK_CSV]  # repr: NaN


def _resep(line: str, sep: str) -> str:
    """``line`` with its field separators (commas outside quotes) replaced by ``sep``."""
    out, quoted = [], False
    for ch in line:
        quoted ^= ch == '"'
        out.append(sep if ch == "," and not quoted else ch)
    return "".join(out)


def test_csv_source_malformed_record_is_nulls_with_a_note(spark):
    """Flink fails the job on a field that does not parse as its column's type (with
    'csv.ignore-parse-errors' it is NULL, as in Spark): Spark gives NULL there, which the NOTE says."""
    ok = ["'topic' = 'a'", "'scan.startup.mode' = 'earliest-offset'", "'format' = 'csv'"]
    code, notes = _kafka.source(kafka("id INT, name STRING", *ok), (), "spark")
    assert any("fails the job on a field that does not parse" in n for n in notes)
    assert _view(spark, code, ["x,y", ",z"]) == [(None, "y"), (None, "z")]


@pytest.mark.parametrize(
    "columns, options, construct",
    [
        ("a BOOLEAN", [], "BOOLEAN column"),  # Flink reads an empty or unknown field as false
        ("a DECIMAL(10, 2)", [], "DECIMAL"),
        ("a TIMESTAMP(3)", [], "TIMESTAMP_NTZ"),
        ("a INT", ["'csv.null-literal' = 'n/a'"], "null-literal"),
        ("a INT", ["'csv.quote-character' = ''''"], "quote character"),
        ("a INT", ["'csv.allow-comments' = 'true'"], "allow-comments"),
    ],
)
def test_csv_source_refused(columns, options, construct):
    ok = ["'topic' = 'a'", "'scan.startup.mode' = 'earliest-offset'", "'format' = 'csv'"]
    with pytest.raises(_sql.Untranslatable, match=construct):
        _kafka.source(kafka(columns, *ok, *options), (), "spark")


# What Flink 2.3's csv format wrote for these rows as Kafka record values: the Java
# CsvRowDataSerializationSchema of the table's row type (s STRING, i INT, d DOUBLE, t STRING) run on
# GenericRowData rows through PyFlink's gateway (no broker needed). No line separator; NULL and ''
# both empty; a string quoted when it holds a character below '-' (space, tab, line break, '"',
# ',', "'"), its quotes doubled; ';' is not quoted.
FLINK_CSV_SINK_ROWS = [("ana", 1, 2.5, "x"), ("a b", -2, 1e10, 'say "hi"'), ("", None, 0.1, "c,d"), ("new\nline", 7, 100.0, "tab\tx"),
                  (None, 0, -0.0, " lead"), ("semi;colon", 3, 1.0e-5, "quote'1")]
FLINK_CSV_SINK = ['ana,1,2.5,x', '"a b",-2,1.0E10,"say ""hi"""', ',,0.1,"c,d"', '"new\nline",7,100.0,"tab\tx"', ',0,-0.0," lead"',
             'semi;colon,3,1.0E-5,"quote\'1"']


def test_csv_sink_values_are_what_flinks_csv_format_writes(spark):
    table = _sql.create_table(f"CREATE TABLE out_t (s STRING, i INT, d DOUBLE, t STRING) WITH ('connector' = 'kafka', {BROKERS}, "
                              "'topic' = 'o', 'format' = 'csv')")
    _, value, _ = _kafka.sink(table, ())
    rows = spark.createDataFrame(FLINK_CSV_SINK_ROWS, "s STRING, i INT, d DOUBLE, t STRING")
    assert [r.value for r in rows.selectExpr(value).collect()] == FLINK_CSV_SINK


@pytest.mark.flink
def test_flinks_csv_values_are_still_those_recorded():
    """FLINK_CSV_SINK as Flink 2.3 writes it (tests/flink_csv_values.py on the reference Flink)."""
    import ast
    import json
    import os
    from pathlib import Path

    from flink_reference import flink_available, run_on_flink

    if not flink_available() and os.environ.get("CI", "").lower() != "true":
        pytest.skip("reference Flink not installed")
    out = run_on_flink(Path(__file__).parent / "flink_csv_values.py", [json.dumps(FLINK_CSV_SINK_ROWS)])
    assert [ast.literal_eval(line) for line in out.splitlines() if line.startswith("'")] == FLINK_CSV_SINK


@pytest.mark.parametrize("columns, option, construct", [
    ("a INT", "'csv.field-delimiter' = ';'", "field-delimiter"),
    ("a INT", "'csv.null-literal' = 'n/a'", "null-literal"),
    ("a BOOLEAN", "'csv.ignore-parse-errors' = 'true'", "column a of type BOOLEAN"),
    ("a TIMESTAMP(3)", "'csv.ignore-parse-errors' = 'true'", "column a of type"),
])
def test_csv_sink_refused(columns, option, construct):
    table = _sql.create_table(f"CREATE TABLE out_t ({columns}) WITH ('connector' = 'kafka', {BROKERS}, 'topic' = 'o', "
                              f"'format' = 'csv', {option})")
    with pytest.raises(_sql.Untranslatable, match=construct):
        _kafka.sink(table, ())


def test_metadata_and_computed_columns_in_the_declared_order(spark):
    """The view of a table with metadata and computed columns: its columns in Flink's order, the
    metadata read from Spark's Kafka columns (a batch DataFrame of Kafka's shape stands for the
    topic: the same projections apply to it)."""
    table = kafka("p INT METADATA FROM 'partition' VIRTUAL, a INT, b AS a * 2, t TIMESTAMP_LTZ(3) METADATA FROM 'timestamp'",
                  "'topic' = 'x'", "'format' = 'json'", "'scan.startup.mode' = 'earliest-offset'")
    code, _ = _kafka.source(table, (), "spark")
    projections = code[code.index(".load()") + len(".load()"):code.index(".createOrReplaceTempView")]
    records = spark.sql("SELECT CAST('{\"a\": 3}' AS BINARY) AS value, 4 AS partition, "
                        "TIMESTAMP '2024-01-01 10:00:00' AS timestamp")
    rows = eval("records" + projections, {"records": records}).collect()  # noqa: S307 (our own generated code)
    assert [tuple(r) for r in rows] == [(4, 3, 6, rows[0].t)] and rows[0].t is not None
    assert list(rows[0].asDict()) == ["p", "a", "b", "t"]


# -- the sink -------------------------------------------------------------------------------

def test_sink_value_and_options(spark):
    table = _sql.create_table("CREATE TABLE out_t (id INT, name STRING, score DOUBLE) WITH ('connector' = 'kafka', "
                              f"{BROKERS}, 'topic' = 'out', 'format' = 'json', 'sink.delivery-guarantee' = 'exactly-once')")
    options, value, notes = _kafka.sink(table, ())
    assert options == [("kafka.bootstrap.servers", "k:9092"), ("topic", "out")]
    assert "at least once" in notes[0]
    # INSERT INTO maps by position and casts to the sink's types: an INT score is written 2.0,
    # a NULL as "name":null (Flink's json writes both so: fixtures orders_kafka_json_filter, clicks_...)
    df = spark.sql("SELECT 1 AS x, CAST(NULL AS STRING) AS y, 2 AS z").toDF("id", "name", "score")
    assert df.selectExpr(value).first().value == '{"id":1,"name":null,"score":2.0}'


# What Flink 2.3's json format wrote for these rows (INSERT INTO a filesystem json table of these
# columns, VALUES of the same literals; the DECIMAL columns of that run are left out: Flink wrote
# 12.50 as 12.5, 0.00 as 0 and 1000000000 as 1E+9)
FLINK_JSON = [
    '{"id":1,"ts":"2024-01-01 10:00:00","t6":"2024-01-01 10:00:00.0001","dt":"2024-01-02","fl":1.1,"arr":["a","b"],'
    '"r":{"a":1,"b":"x"},"m":{"k":1}}',
    '{"id":2,"ts":"2024-01-01 10:00:00.5","t6":"2024-01-01 10:00:00.123456","dt":"0999-12-31","fl":1.0E10,"arr":null,'
    '"r":{"a":null,"b":"y"},"m":{"z":null}}',
    '{"id":3,"ts":"2024-01-01 10:00:00.123","t6":"2024-01-01 10:00:00.1","dt":"2024-01-02","fl":0.1,"arr":["c"],'
    '"r":{"a":3,"b":null},"m":null}',
]


def test_sink_values_are_what_flinks_json_format_writes(spark):
    table = _sql.create_table(
        f"CREATE TABLE out_t (id INT, ts TIMESTAMP(3), t6 TIMESTAMP(6), dt DATE, fl FLOAT, arr ARRAY<STRING>, "
        f"r ROW<a INT, b STRING>, m MAP<STRING, INT>) WITH ('connector' = 'kafka', {BROKERS}, 'topic' = 'out', 'format' = 'json')")
    _, value, _ = _kafka.sink(table, ())
    rows = spark.sql("""SELECT * FROM VALUES
        (1, TIMESTAMP '2024-01-01 10:00:00', TIMESTAMP_NTZ '2024-01-01 10:00:00.0001', DATE '2024-01-02',
         CAST(1.1 AS FLOAT), ARRAY('a', 'b'), named_struct('a', 1, 'b', 'x'), map('k', 1)),
        (2, TIMESTAMP '2024-01-01 10:00:00.5', TIMESTAMP_NTZ '2024-01-01 10:00:00.123456', DATE '0999-12-31',
         CAST(1e10 AS FLOAT), CAST(NULL AS ARRAY<STRING>), named_struct('a', CAST(NULL AS INT), 'b', 'y'), map('z', CAST(NULL AS INT))),
        (3, TIMESTAMP '2024-01-01 10:00:00.123', TIMESTAMP_NTZ '2024-01-01 10:00:00.1', DATE '2024-01-02',
         CAST(0.1 AS FLOAT), ARRAY('c'), named_struct('a', 3, 'b', CAST(NULL AS STRING)), CAST(NULL AS MAP<STRING, INT>))
        AS t(a, b, c, d, e, f, g, h)""")  # ts a TIMESTAMP (with time zone), as a window bound over the watermark column
    assert [r.value for r in rows.toDF(*[n for n, _ in table.columns]).selectExpr(value).collect()] == FLINK_JSON


@pytest.mark.parametrize("column", ["d DECIMAL(10, 2)", "t TIMESTAMP_LTZ(3)", "a ARRAY<TIMESTAMP(3)>", "b BYTES"])
def test_sink_columns_written_otherwise_refused(column):
    table = _sql.create_table(f"CREATE TABLE out_t (id INT, {column}) WITH ('connector' = 'kafka', {BROKERS}, "
                              "'topic' = 'out', 'format' = 'json')")
    with pytest.raises(_sql.Untranslatable, match=f"column {column.split()[0]} of type"):
        _kafka.sink(table, ())


# What Flink 2.3's json format wrote without 'json.encode.decimal-as-plain-number' (run on
# 2026-11-27: INSERT INTO a filesystem json table (id BIGINT, amount DECIMAL(32, 2), small
# DECIMAL(5, 0)) of VALUES of CASTs of these numbers): the BigDecimal's trailing zeros stripped,
# a whole multiple of ten in Java's scientific form. With the option, the same run wrote what
# Spark's to_json writes below ({"id":1,"amount":12.50,"small":100}...)
FLINK_DEFAULT_DECIMALS = ['{"id":1,"amount":12.5,"small":1E+2}', '{"id":3,"amount":0,"small":-1.5E+3}',
                          '{"id":8,"amount":1E+9,"small":7}']


def test_sink_decimal_without_plain_numbers_refused_with_flinks_text(spark):
    # Spark's to_json writes a DECIMAL's BigDecimal.toString() at the column's scale: every row
    # but the one with nothing to strip differs from Flink's text (the same JSON numbers, other
    # text); no scale or cast of a Spark DECIMAL writes Flink's, so the sink stays a TODO
    rows = spark.sql("SELECT * FROM VALUES (1, 12.5, 100), (3, 0, -1500), (8, 1000000000, 7) AS t(id, amount, small)")
    spark_text = [r.value for r in rows.selectExpr(
        "to_json(named_struct('id', id, 'amount', CAST(amount AS DECIMAL(32, 2)), 'small', CAST(small AS DECIMAL(5, 0))))"
        " AS value").collect()]
    assert spark_text == ['{"id":1,"amount":12.50,"small":100}', '{"id":3,"amount":0.00,"small":-1500}',
                          '{"id":8,"amount":1000000000.00,"small":7}']
    assert all(a != b for a, b in zip(spark_text, FLINK_DEFAULT_DECIMALS))
    table = _sql.create_table(f"CREATE TABLE out_t (id BIGINT, amount DECIMAL(32, 2)) WITH ('connector' = 'kafka', "
                              f"{BROKERS}, 'topic' = 'out', 'format' = 'json')")
    with pytest.raises(_sql.Untranslatable, match=r"12.50 as 12.5, 100.00 as 1E\+2.*decimal-as-plain-number"):
        _kafka.sink(table, ())


# What Flink 2.3's json format wrote for these DECIMAL values (INSERT INTO a filesystem json table
# of these columns, VALUES of CASTs of the same text), with and without
# 'json.encode.decimal-as-plain-number' (without: 12.50 as 12.5, 1000000000 as 1E+9)
FLINK_PLAIN_DECIMALS = [
    '{"a":12.50,"b":1000000000.00,"c":100,"d":0.0001}',
    '{"a":0.00,"b":-3.50,"c":null,"d":-0.5000}',
    '{"a":0.01,"b":12345678901234567890.12,"c":0,"d":0.0000}',
]


def test_sink_decimals_written_as_plain_numbers(spark):
    columns = "a DECIMAL(10, 2), b DECIMAL(32, 2), c DECIMAL(5, 0), d DECIMAL(12, 4)"
    table = _sql.create_table(f"CREATE TABLE out_t ({columns}) WITH ('connector' = 'kafka', {BROKERS}, 'topic' = 'out', "
                              "'format' = 'json', 'json.encode.decimal-as-plain-number' = 'true')")
    _, value, _ = _kafka.sink(table, ())
    rows = spark.sql("""SELECT * FROM VALUES ('12.50', '1000000000', '100', '0.0001'), ('0', '-3.5', NULL, '-0.5'),
                        ('0.01', '12345678901234567890.12', '0', '0.00000') AS t(a, b, c, d)""")
    assert [r.value for r in rows.selectExpr(value).collect()] == FLINK_PLAIN_DECIMALS
    # a scale above 6: Spark's to_json writes 0E-7 where Flink writes 0.0000000
    with pytest.raises(_sql.Untranslatable, match="column e of type DECIMAL"):
        _kafka.sink(_sql.create_table(f"CREATE TABLE out_t (e DECIMAL(10, 7)) WITH ('connector' = 'kafka', {BROKERS}, "
                                      "'topic' = 'out', 'format' = 'json', 'json.encode.decimal-as-plain-number' = 'true')"), ())


def test_raw_values(spark):
    """'format' = 'raw': the record value is the table's one column (UTF-8 text for a STRING)."""
    options = ["'topic' = 'x'", "'format' = 'raw'", "'scan.startup.mode' = 'earliest-offset'"]
    code, _ = _kafka.source(kafka("line STRING", *options), (), "spark")
    projections = code[code.index(".load()") + len(".load()"):code.index(".createOrReplaceTempView")]
    records = spark.sql("SELECT CAST('caf\u00e9 1' AS BINARY) AS value UNION ALL SELECT CAST(NULL AS BINARY)")
    assert [r.line for r in eval("records" + projections, {"records": records}).collect()] == ["caf\u00e9 1", None]  # noqa: S307
    _, value, _ = _kafka.sink(kafka("line STRING", *options), ())
    assert value == "CAST(line AS STRING) AS value"
    with pytest.raises(_sql.Untranslatable, match="raw format of other than one"):
        _kafka.source(kafka("a STRING, b STRING", *options), (), "spark")


def test_nested_json_values_are_read(spark):
    table = kafka("tags ARRAY<STRING>, pos ROW<x DOUBLE, y DOUBLE>, attrs MAP<STRING, INT>, price DECIMAL(10, 2)",
                  "'topic' = 'x'", "'format' = 'json'", "'scan.startup.mode' = 'earliest-offset'")
    code, _ = _kafka.source(table, (), "spark")
    projections = code[code.index(".load()") + len(".load()"):code.index(".createOrReplaceTempView")]
    records = spark.sql("""SELECT CAST('{"tags": ["a", "b"], "pos": {"x": 1.5, "y": -2}, "attrs": {"k": 3}, "price": 12.5}'
                           AS BINARY) AS value""")
    row = eval("records" + projections, {"records": records}).first()  # noqa: S307 (our own generated code)
    assert (row.tags, tuple(row.pos), row.attrs, str(row.price)) == (["a", "b"], (1.5, -2.0), {"k": 3}, "12.50")


# -- streaming queries ----------------------------------------------------------------------

@pytest.mark.parametrize(
    "sql",
    [
        "SELECT k, v FROM src WHERE v > 1",
        "SELECT k FROM src UNION ALL SELECT k FROM src",
        "SELECT k, TUMBLE_START(ts, INTERVAL '10' SECOND), COUNT(*) FROM src GROUP BY k, TUMBLE(ts, INTERVAL '10' SECOND)",
        "SELECT window_start, k, SUM(v) FROM TABLE(TUMBLE(TABLE src, DESCRIPTOR(ts), INTERVAL '10' SECOND)) "
        "GROUP BY window_start, window_end, k",
    ],
)
def test_streaming_queries_that_translate(sql):
    assert _sql.streaming(sql, TABLES)
    _sql.query(sql, TABLES)


@pytest.mark.parametrize(
    "sql, construct",
    [
        ("SELECT k, v FROM src ORDER BY v", "ORDER BY"),
        ("SELECT k FROM src LIMIT 3", "LIMIT"),
        ("SELECT DISTINCT k FROM src", "SELECT DISTINCT"),
        ("SELECT s.k, d.name FROM src s JOIN dim d ON s.k = d.k", "JOIN"),
        ("SELECT k, COUNT(*) FROM src GROUP BY k", "aggregation without a window"),
        ("SELECT COUNT(*) FROM src", "aggregation without a window"),
        ("SELECT k, ROW_NUMBER() OVER (PARTITION BY k ORDER BY ts) FROM src", "OVER window"),
        ("SELECT k, COUNT(DISTINCT v) FROM src GROUP BY k, TUMBLE(ts, INTERVAL '10' SECOND)", "DISTINCT aggregate"),
        ("SELECT k FROM src WHERE k IN (SELECT k FROM dim)", "subquery"),
        ("SELECT k FROM src UNION SELECT k FROM src", "UNION"),
        ("SELECT window_start, COUNT(*) FROM TABLE(TUMBLE(TABLE src, DESCRIPTOR(ts), INTERVAL '10' SECOND)) GROUP BY window_start",
         "without GROUP BY window_start, window_end"),
        ("SELECT n, COUNT(*) FROM (SELECT TUMBLE_START(ts, INTERVAL '10' SECOND) AS w, COUNT(*) AS n FROM src "
         "GROUP BY TUMBLE(ts, INTERVAL '10' SECOND)) GROUP BY n", "aggregation over an aggregation"),
    ],
)
def test_streaming_queries_refused(sql, construct):
    if construct == "aggregation without a window":  # only a consumer taking updates runs it (update mode)
        assert _sql.updating(sql, TABLES)
        _sql.query(sql, TABLES, updates=True)
    with pytest.raises(_sql.Untranslatable, match=construct):
        _sql.query(sql, TABLES)
    assert "ORDER BY" not in construct or _sql.query("SELECT k FROM dim ORDER BY k", TABLES)  # bounded: as before


def test_window_on_a_column_without_watermark_refused():
    table = kafka("k STRING, ts TIMESTAMP(3)", "'topic' = 'src'", "'format' = 'json'", "'scan.startup.mode' = 'earliest-offset'")
    with pytest.raises(_sql.Untranslatable, match="without WATERMARK"):
        _sql.query("SELECT COUNT(*) FROM src GROUP BY TUMBLE(ts, INTERVAL '10' SECOND)", {"src": table})


def test_a_bounded_kafka_table_is_read_as_a_batch():
    table = kafka("k STRING", "'topic' = 'src'", "'format' = 'json'", "'scan.bounded.mode' = 'latest-offset'")
    assert table.bounded and not _sql.streaming("SELECT k FROM src ORDER BY k", {"src": table})


def test_window_tvf_of_a_stream_runs_in_append_mode_with_flinks_windows(spark, tmp_path):
    """The streaming form of a window TVF aggregation (grouped by the window itself, which
    carries the watermark) runs on Spark in append mode, and gives the windows the watermark
    has passed: with the largest ts 10:00:31 and a 2 s delay, [10:00:00, 10:00:10) and
    [10:00:10, 10:00:20) but not [10:00:30, 10:00:40) (Flink gives the same, on the same rule:
    fixture sensor_kafka_tumble_window)."""
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.txt").write_text("x,2024-01-01 10:00:01,1\nx,2024-01-01 10:00:07,2\ny,2024-01-01 10:00:12,5\nx,2024-01-01 10:00:31,7\n")
    stream = spark.readStream.format("text").load(str(folder)).selectExpr(
        "split(value, ',')[0] AS k", "CAST(split(value, ',')[2] AS INT) AS v", "CAST(split(value, ',')[1] AS TIMESTAMP) AS ts")
    stream.withWatermark("ts", "2 seconds").createOrReplaceTempView("src")
    sql = _sql.query("SELECT window_start, window_end, k, SUM(v) AS total FROM TABLE(TUMBLE(TABLE src, DESCRIPTOR(ts), "
                     "INTERVAL '10' SECOND)) GROUP BY window_start, window_end, k", TABLES)
    rows = []
    query = (spark.sql(sql).writeStream.foreachBatch(lambda batch, _: rows.extend(batch.collect()))
             .option("checkpointLocation", tempfile.mkdtemp(dir=tmp_path)).outputMode("append")
             .trigger(availableNow=True).start())
    query.awaitTermination()
    spark.catalog.dropTempView("src")
    got = sorted((str(r.window_start), str(r.window_end), r.k, r.total) for r in rows)
    assert got == [("2024-01-01 10:00:00", "2024-01-01 10:00:10", "x", 3), ("2024-01-01 10:00:10", "2024-01-01 10:00:20", "y", 5)]


# -- conversions ----------------------------------------------------------------------------

HEAD = (
    "from pyflink.table import EnvironmentSettings, TableEnvironment\n"
    "t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())\n"
    "t_env.execute_sql(\"CREATE TABLE src (k STRING, v INT) WITH ('connector' = 'kafka', 'topic' = 'src', "
    "'properties.bootstrap.servers' = 'k:9092', 'scan.startup.mode' = 'earliest-offset', 'format' = 'json')\")\n"
    "t_env.execute_sql(\"CREATE TABLE out_t (k STRING, v INT) WITH ('connector' = 'print')\")\n"
)


def convert(body: str) -> str:
    return convert_source(HEAD + body, "job.py").output


def flat(code: str) -> str:
    """The code without line breaks and indentation (the formatter cuts long chains)."""
    return "".join(code.split())


@pytest.mark.parametrize(
    "body, todo",
    [
        ("t_env.from_path('src').order_by(col('v')).execute().print()\n", "order_by() on an unbounded table"),
        ("t_env.from_path('src').group_by(col('k')).select(col('k'), col('v').sum.alias('n')).where(col('n') > 1).execute().print()\n",
         "group_by() without a window"),
        ("t_env.from_path('src').distinct().execute_insert('out_t').wait()\n", "distinct() on an unbounded table"),
        ("t = t_env.from_path('src')\nt.left_outer_join(t_env.from_path('src').alias('k2', 'v2'), col('k') == col('k2'))"
         ".execute().print()\n", "left_outer_join() of two streams"),  # an inner one converts: tests/test_table_stream_joins.py
        ("print(t_env.from_path('src').execute().collect())\n", "execute().collect(): a streaming query (it reads an unbounded table)"),
        ("print(t_env.from_path('src').to_pandas())\n", "to_pandas() on an unbounded table"),
        ("t_env.sql_query('SELECT k, COUNT(*) FROM src GROUP BY k').execute().print()\n", "aggregation without a window"),
    ],
)
def test_what_a_stream_cannot_do_is_a_todo(body, todo):
    out = convert("from pyflink.table.expressions import col\n" + body)
    assert todo in out, out


def test_a_print_sink_over_a_stream_shows_each_micro_batch_and_waits_where_flink_does():
    out = convert("t_env.execute_sql('INSERT INTO out_t SELECT k, v FROM src WHERE v > 0').wait()\n"
                  "t_env.from_path('src').execute().print()\n")
    assert flat(out).count(flat(".writeStream.foreachBatch(lambda batch, _: batch.show(2147483647, truncate=False))")) == 2
    assert flat(out).count(flat('.outputMode("append").start().awaitTermination()')) == 2
    assert "TODO" not in out


def test_insert_without_wait_starts_the_query_only():
    out = convert("t_env.execute_sql('INSERT INTO out_t SELECT k, v FROM src')\n")
    assert flat(out).endswith(flat('.outputMode("append").start()'))


def test_a_kafka_table_only_written_is_not_declared_in_spark():
    out = convert_source(
        "from pyflink.table import EnvironmentSettings, TableEnvironment\n"
        "t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())\n"
        "t_env.execute_sql(\"CREATE TABLE sink (k STRING) WITH ('connector' = 'kafka', 'topic' = 'o', "
        "'properties.bootstrap.servers' = 'k:9092', 'format' = 'json')\")\n"
        "t_env.from_elements([('a',)], ['k']).execute_insert('sink').wait()\n", "job.py").output
    assert "readStream" not in out and "CREATE TABLE" not in out
    # a bounded query into Kafka: a batch write
    assert flat('.write.format("kafka").option("kafka.bootstrap.servers", "k:9092").option("topic", "o").save()') in flat(out)


SINKS = "".join(
    f"t_env.execute_sql(\"CREATE TABLE {name} (k STRING, v INT) WITH ('connector' = 'kafka', 'topic' = '{name}', "
    "'properties.bootstrap.servers' = 'k:9092', 'format' = 'json')\")\n" for name in ("big_t", "small_t"))


def run_awaited_together(spark, out: str, drain, written: dict, view: str, fields: tuple[str, ...]) -> dict:
    """Run a converted program of two streaming inserts into Kafka topics (``fake_kafka``), each
    started on its own and awaited together: {topic: its records' ``fields``, sorted}."""
    assert "TODO" not in out, out
    assert flat(out).count(flat('.outputMode("append").start()')) == 2 and "awaitTermination()" not in out
    assert out.rstrip().endswith("t_env.streams.awaitAnyTermination()"), out
    # awaitAnyTermination() raises for any query of the session that failed since the last reset,
    # an earlier test's included (one that checks Spark refuses a query): forget those first
    spark.streams.resetTerminated()
    try:
        exec(compile(out, "job.py", "exec"), {})  # with the available-now trigger, each query ends after the topic's records
        drain(spark)
    finally:
        spark.catalog.dropTempView(view)
    return {topic: sorted(tuple(json.loads(v)[f] for f in fields) for v in values) for topic, values in written.items()}


def test_streaming_inserts_of_a_statement_set_start_a_query_each_awaited_together_on_spark(spark, fake_kafka):
    # Flink runs the set's inserts as one job; each is a Spark streaming query started where it is
    # added, and execute().wait() waits for them all (the legacy t_env.execute() of buffered inserts too)
    publish, written, _, drain = fake_kafka
    publish("src", ['{"k": "a", "v": 5}', '{"k": "b", "v": 50}', '{"k": "c", "v": 12}'])
    out = convert(SINKS + "from pyflink.table.expressions import col\ns = t_env.create_statement_set()\n"
                  "s.add_insert_sql('INSERT INTO big_t SELECT k, v FROM src WHERE v > 10')\n"
                  "s.add_insert('small_t', t_env.from_path('src').where(col('v') <= 10))\n"
                  "s.execute().wait()\n")
    rows = run_awaited_together(spark, out, drain, written, "src", ("k", "v"))
    assert rows == {"big_t": [("b", 50), ("c", 12)], "small_t": [("a", 5)]}


def test_streaming_inserts_of_a_statement_set_given_to_a_helper_are_a_todo():
    out = convert("def add(statements):\n    statements.add_insert_sql('INSERT INTO out_t SELECT k, v FROM src')\n\n\n"
                  "s = t_env.create_statement_set()\nadd(s)\ns.execute().wait()\n")
    assert "TODO(flink2spark): F2S300 add_insert_sql(): a streaming INSERT in a statement set this rule cannot follow" in out, out


def test_sink_options_naming_a_variable_the_write_does_not_see_are_a_todo():
    out = convert_source(
        "from pyflink.table import EnvironmentSettings, TableEnvironment\n"
        "t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())\n"
        "def declare(brokers):\n"
        "    t_env.execute_sql(f\"CREATE TABLE sink (k STRING) WITH ('connector' = 'kafka', 'topic' = 'o', "
        "'properties.bootstrap.servers' = '{brokers}', 'format' = 'json')\")\n"
        "declare('k:9092')\n"
        "t_env.from_elements([('a',)], ['k']).execute_insert('sink').wait()\n", "job.py").output
    assert "its options name variables this statement does not see" in out


def test_a_descriptor_schema_with_computed_and_metadata_columns_and_a_watermark():
    out = convert_source(
        "from pyflink.table import DataTypes, EnvironmentSettings, Schema, TableDescriptor, TableEnvironment\n"
        "t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())\n"
        "t_env.create_temporary_table('src', TableDescriptor.for_connector('kafka').schema(\n"
        "    Schema.new_builder().column('v', DataTypes.INT()).column('ts', DataTypes.TIMESTAMP(3))\n"
        "    .column_by_expression('w', 'v * 2').column_by_metadata('p', DataTypes.INT(), 'partition', True)\n"
        "    .watermark('ts', \"ts - INTERVAL '3' SECOND\").build())\n"
        "    .option('topic', 't').option('properties.bootstrap.servers', 'k:9092')\n"
        "    .option('scan.startup.mode', 'latest-offset').format('json').build())\n"
        "t_env.execute_sql(\"SELECT COUNT(*) FROM src GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE)\").print()\n", "job.py").output
    assert "TODO" not in out, out
    assert flat('.selectExpr("value.v", "CAST(value.ts AS TIMESTAMP) AS ts", "p").selectExpr("v", "ts", "v * 2 AS w", "p")'
                '.withWatermark("ts", "3 seconds")') in flat(out)
    assert flat('"`partition` AS p"') in flat(out)


# -- updating queries (aggregations without a window): update mode --------------------------

KAFKA_OUT = ("t_env.execute_sql(\"CREATE TABLE kout (k STRING, n BIGINT) WITH ('connector' = 'kafka', 'topic' = 'o', "
             "'properties.bootstrap.servers' = 'k:9092', 'format' = 'json')\")\n")


@pytest.mark.parametrize(
    "body",
    [
        "t_env.execute_sql('INSERT INTO out_t SELECT k, CAST(COUNT(*) AS INT) FROM src GROUP BY k').wait()\n",
        "t_env.execute_sql('SELECT k, SUM(v) AS total FROM src GROUP BY k').print()\n",
        "t_env.execute_sql(\"CREATE TABLE bh (k STRING, n BIGINT) WITH ('connector' = 'blackhole')\")\n"
        "t_env.execute_sql('INSERT INTO bh SELECT k, COUNT(*) FROM src GROUP BY k').wait()\n",
        "t_env.execute_sql('INSERT INTO out_t SELECT k, MAX(v) FROM (SELECT UPPER(k) AS k, v FROM src WHERE v > 0) GROUP BY k').wait()\n",
    ],
)
def test_an_aggregation_without_a_window_into_a_sink_taking_updates_runs_in_update_mode(body):
    """print tables, TableResult.print() and blackhole tables take Flink's updating table: the
    query runs in Spark's update output mode, with the NOTE saying what differs (the changes per
    micro-batch, not per record); the final rows were compared with Flink's on the fixture
    page_views_kafka_running_totals."""
    out = convert(body)
    assert flat('.outputMode("update").start().awaitTermination()') in flat(out), out
    assert "F2S319" in out and "TODO" not in out
    assert convert_source(out, "job.py").output == out


@pytest.mark.parametrize(
    "body, todo",
    [
        # Flink 2.3 refuses an updating table into a kafka (or filesystem) table: the job fails
        (KAFKA_OUT + "t_env.execute_sql('INSERT INTO kout SELECT k, COUNT(*) FROM src GROUP BY k').wait()\n",
         "into 'kout': a 'kafka' table takes inserts only: Flink refuses the job"),
        # a condition on the aggregated rows turning false: Flink retracts the row (-D), update mode writes nothing
        ("t_env.execute_sql('INSERT INTO out_t SELECT k, CAST(COUNT(*) AS INT) FROM src GROUP BY k HAVING SUM(v) < 10').wait()\n",
         "HAVING of an aggregation without a window"),
        ("t_env.execute_sql('SELECT k, n FROM (SELECT k, COUNT(*) AS n FROM src GROUP BY k) WHERE n < 3').print()\n",
         "WHERE over an aggregation without a window"),
        ("t_env.execute_sql('SELECT k, COUNT(*) FROM src GROUP BY k UNION ALL SELECT k, 1 FROM src').print()\n",
         "UNION of an aggregation without a window"),
    ],
)
def test_updating_queries_refused(body, todo):
    out = convert(body)
    assert todo in out, out
    assert "outputMode(\"update\")" not in out


def test_a_kept_streaming_insert_is_awaited_at_its_wait():
    """result = execute_sql(INSERT over a stream); print(...); result.wait(): Flink prints the line,
    then waits; the converted program starts the query, prints, then awaits it (before, the wait
    moved to the insert and the print never ran)."""
    out = convert("result = t_env.execute_sql('INSERT INTO out_t SELECT k, v FROM src')\nprint('started')\nresult.wait()\n")
    assert out.index("result = ") < out.index("print('started')") < out.index("result.awaitTermination()"), out


def test_update_mode_gives_each_micro_batch_the_new_rows_of_the_groups_it_changed(spark, tmp_path):
    """What NOTE F2S319 says, on Spark: the translated aggregation in update mode over two
    micro-batches (one file each) gives, in the second, only the groups the second file changed,
    with their totals over both files; the latest row of each group is the final table Flink's
    changelog folds into (x: 1+2+4 = 7 over 3 records, y: 5 over 1, z: 6 over 1)."""
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.txt").write_text("x,1\nx,2\ny,5\n")
    (folder / "b.txt").write_text("x,4\nz,6\n")
    import os
    os.utime(folder / "a.txt", (1_000_000_000, 1_000_000_000))  # the file source reads the older file first
    stream = spark.readStream.format("text").option("maxFilesPerTrigger", 1).load(str(folder)).selectExpr(
        "split(value, ',')[0] AS k", "CAST(split(value, ',')[1] AS INT) AS v", "current_timestamp() AS ts")
    stream.createOrReplaceTempView("src")
    sql = _sql.query("SELECT k, SUM(v) AS total, COUNT(*) AS n FROM src GROUP BY k", TABLES, updates=True)
    batches = []
    query = (spark.sql(sql).writeStream.foreachBatch(lambda batch, i: batches.append(sorted(tuple(r) for r in batch.collect())))
             .option("checkpointLocation", tempfile.mkdtemp(dir=tmp_path)).outputMode("update")
             .trigger(availableNow=True).start())
    query.awaitTermination()
    spark.catalog.dropTempView("src")
    batches = [b for b in batches if b]
    assert batches == [[("x", 3, 2), ("y", 5, 1)], [("x", 7, 3), ("z", 6, 1)]]
    latest = {}
    for batch in batches:
        latest.update({k: (total, n) for k, total, n in batch})
    assert latest == {"x": (7, 3), "y": (5, 1), "z": (6, 1)}


def upsert(columns: str, *options: str) -> _sql.TableDef:
    extra = "".join(f", {o}" for o in options)
    return _sql.create_table(f"CREATE TABLE up ({columns}) WITH ('connector' = 'upsert-kafka', {BROKERS}, 'topic' = 'up'{extra})")


def test_upsert_kafka_sink_writes_the_primary_key_as_the_record_key(spark):
    """upsert-kafka: each row under the json of its primary key, the value all its columns (the
    json Flink's json format writes: test_sink_values_are_what_flinks_json_format_writes); the
    whole program was compared with Flink on the fixture orders_kafka_upsert_customer_totals."""
    table = upsert("region STRING, shop INT, n BIGINT, PRIMARY KEY (shop, region) NOT ENFORCED",
                   "'key.format' = 'json'", "'value.format' = 'json'", "'sink.buffer-flush.max-rows' = '10'")
    options, value, notes = _kafka.sink(table, ())
    assert options == [("kafka.bootstrap.servers", "k:9092"), ("topic", "up")]
    assert any("sink.buffer-flush.max-rows" in n for n in notes)
    row = spark.sql("SELECT 'eu' AS region, 7 AS shop, 3L AS n").selectExpr(_kafka.record_key(table), value).first()
    assert (row.key, row.value) == ('{"shop":7,"region":"eu"}', '{"region":"eu","shop":7,"n":3}')


@pytest.mark.parametrize(
    "columns, options, construct",
    [
        ("k STRING, n BIGINT", ["'key.format' = 'json'", "'value.format' = 'json'"], "without a PRIMARY KEY"),
        ("k STRING, n BIGINT, PRIMARY KEY (k) NOT ENFORCED", ["'key.format' = 'raw'", "'value.format' = 'json'"], "'key.format' 'raw'"),
        ("k STRING, n BIGINT, PRIMARY KEY (k) NOT ENFORCED",
         ["'key.format' = 'json'", "'value.format' = 'json'", "'value.fields-include' = 'EXCEPT_KEY'"], "EXCEPT_KEY"),
    ],
)
def test_upsert_kafka_sinks_refused(columns, options, construct):
    with pytest.raises(_sql.Untranslatable, match=construct):
        _kafka.sink(upsert(columns, *options), ())


UPSERT_OUT = ("t_env.execute_sql(\"CREATE TABLE up (k STRING, n BIGINT, PRIMARY KEY (k) NOT ENFORCED) WITH ("
              "'connector' = 'upsert-kafka', 'topic' = 'up', 'properties.bootstrap.servers' = 'k:9092', "
              "'key.format' = 'json', 'value.format' = 'json')\")\n")


def test_an_aggregation_into_an_upsert_kafka_table_is_a_keyed_kafka_write_in_update_mode():
    out = convert(UPSERT_OUT + "t_env.execute_sql('INSERT INTO up SELECT k, COUNT(*) FROM src GROUP BY k').wait()\n")
    assert "TODO" not in out and "F2S319" in out
    assert flat("AS key\",") in flat(out) and flat('.writeStream.format("kafka")') in flat(out)
    assert flat('.outputMode("update").start().awaitTermination()') in flat(out)


def test_an_upsert_kafka_table_read_is_a_todo():
    out = convert(UPSERT_OUT + "t_env.execute_sql('SELECT k, n FROM up').print()\n")
    assert "upsert-kafka table read as a source" in out


@pytest.mark.parametrize(
    "body",
    [
        "t_env.from_path('src').group_by(col('k')).select(col('k'), col('v').sum.alias('total')).execute().print()\n",
        "t = t_env.from_path('src').group_by(col('k')).select(col('k'), col('v').max.alias('v'))\nt.execute_insert('out_t').wait()\n",
    ],
)
def test_a_table_api_aggregation_without_a_window_into_a_print_runs_in_update_mode(body):
    out = convert("from pyflink.table.expressions import col\n" + body)
    assert "TODO" not in out and "F2S319" in out, out
    assert flat('.outputMode("update").start().awaitTermination()') in flat(out)


@pytest.mark.parametrize(
    "body, todos",
    [
        # a filter of the aggregated rows: Flink retracts a row the filter drops
        ("t = t_env.from_path('src').group_by(col('k')).select(col('k'), col('v').max.alias('v'))\n"
         "t.filter(col('v') > 2).execute_insert('out_t').wait()\n",
         ["used otherwise than by execute_insert() or execute().print()", "a projection or filter of an aggregation"]),
        # a kafka table takes inserts only: Flink refuses the job
        (KAFKA_OUT + "t_env.from_path('src').group_by(col('k')).select(col('k'), col('v').count.alias('n')).execute_insert('kout').wait()\n",
         ["a 'kafka' table takes inserts only", "a 'kafka' table takes inserts only"]),
    ],
)
def test_table_api_updating_tables_refused(body, todos):
    out = convert("from pyflink.table.expressions import col\n" + body)
    assert [t for t in todos if t in out] == todos, out
    assert "outputMode(\"update\")" not in out


def test_a_processing_time_window_on_a_stream_runs_over_the_watermarked_micro_batch_time():
    """The view watermarks its one PROCTIME() column (NOTE F2S332; run on Spark by
    tests/test_table_proctime.py); with two, which one the view watermarks is not known: TODO."""
    table = kafka("k STRING, p AS PROCTIME()", "'topic' = 'src'", "'format' = 'json'", "'scan.startup.mode' = 'earliest-offset'")
    assert table.proctime_watermark() == "p"
    assert "GROUP BY k, WINDOW(p, '1 seconds')" in _sql.query(
        "SELECT k, COUNT(*) FROM src GROUP BY k, TUMBLE(p, INTERVAL '1' SECOND)", {"src": table})
    view, _ = _kafka.source(table, (), "spark")
    assert '"current_timestamp() AS p").withWatermark("p", "0 seconds")' in view, view
    two = kafka("k STRING, p AS PROCTIME(), q AS PROCTIME()", "'topic' = 'src'", "'format' = 'json'", "'scan.startup.mode' = 'earliest-offset'")
    assert two.proctime_watermark() is None
    with pytest.raises(_sql.Untranslatable, match=r"processing-time window \(PROCTIME\(\)\).*wall clock"):
        _sql.query("SELECT k, COUNT(*) FROM src GROUP BY k, TUMBLE(p, INTERVAL '1' SECOND)", {"src": two})


def test_a_kept_result_of_a_streaming_query_collected_is_a_todo_saying_why():
    # a loop that reads only the row runs per micro-batch (foreachBatch, NOTE F2S337: tests/
    # test_table_results.py); one that leaves the loop early has no such form
    out = convert("result = t_env.from_path('src').execute()\nfor row in result.collect():\n    print(row)\n    break\n")
    assert "Spark's collect() refuses a streaming DataFrame (port the use of the rows to writeStream.foreachBatch)" in out
    assert "foreachBatch(" not in out.replace("writeStream.foreachBatch)", "")


# -- an aggregate of the whole stream in select(): an updating table as well ---------------------

DEPOTS = "depots = t_env.from_elements([('a', 'AMS')], ['code', 'city'])\n"


@pytest.mark.parametrize(
    "body",
    [
        "t_env.from_path('src').select(col('v').sum.alias('v')).execute_insert('out_t').wait()\n",
        "stream = t_env.from_path('src')\nstream.select(col('v').max).execute().print()\n",
        "t_env.from_path('src').select('v.sum as v').execute_insert('out_t').wait()\n",
        DEPOTS + "t_env.from_path('src').join(depots, col('k') == col('code')).select(col('v').sum.alias('v'))"
                 ".execute_insert('out_t').wait()\n",
    ],
)
def test_an_aggregate_of_the_whole_stream_in_select_runs_in_update_mode(body):
    """Flink treats select(col('v').sum) of an unbounded table as a global aggregation (one row,
    updated as records come): before, it was written in append mode, which Spark refuses when the
    query starts (test_spark_refuses_a_global_aggregate_of_a_stream_in_append_mode)."""
    out = convert("from pyflink.table.expressions import col\n" + body)
    assert flat('.outputMode("update").start()') in flat(out), out
    assert "append" not in out and "F2S319" in out and "TODO" not in out, out
    assert convert_source(out, "job.py").output == out


@pytest.mark.parametrize(
    "body, todo",
    [
        (KAFKA_OUT + "t_env.from_path('src').select(col('v').count.alias('n')).execute_insert('kout').wait()\n",
         "a 'kafka' table takes inserts only: Flink refuses the job"),
        ("t = t_env.from_path('src')\nt.join(t_env.from_path('src').alias('k2', 'v2'), col('k') == col('k2'))"
         ".select(col('v').sum.alias('v')).execute_insert('out_t').wait()\n",
         "Spark's update mode refuses a join of two streams"),
        ("t_env.from_path('src').select(col('v').sum.alias('v')).where(col('v') > 3).execute().print()\n",
         "a projection or filter of an aggregation without a window over a stream"),
    ],
)
def test_an_aggregate_of_the_whole_stream_refused(body, todo):
    out = convert("from pyflink.table.expressions import col\n" + body)
    assert todo in out, out
    assert 'outputMode("append")' not in out, out


def test_an_aggregate_of_a_bounded_table_in_streaming_mode_stays_a_batch_select():
    out = convert("from pyflink.table.expressions import col\n"
                  "t_env.from_elements([(1,)], ['v']).select(col('v').sum.alias('v')).execute().print()\n")
    assert "writeStream" not in out and flat('select(F.sum(F.col("v")).alias("v"))') in flat(out), out


def test_spark_refuses_a_global_aggregate_of_a_stream_in_append_mode(spark, tmp_path):
    """Why the select() of an aggregate over a stream is written in update mode: Spark refuses
    append mode for it; in update mode each micro-batch gives the one row, its latest the total
    Flink's changelog folds into (1 + 2 + 4 = 7)."""
    from pyspark.errors import AnalysisException
    from pyspark.sql import functions as F

    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.txt").write_text("1\n2\n")
    stream = spark.readStream.format("text").load(str(folder)).selectExpr("CAST(value AS INT) AS v")
    total = stream.select(F.sum(F.col("v")).alias("v"))
    with pytest.raises(AnalysisException, match="STREAMING_OUTPUT_MODE.UNSUPPORTED_OPERATION"):
        total.writeStream.format("noop").option("checkpointLocation", tempfile.mkdtemp(dir=tmp_path)).outputMode("append").start()
    batches = []
    query = (total.writeStream.foreachBatch(lambda batch, _: batches.append([tuple(r) for r in batch.collect()]))
             .option("checkpointLocation", tempfile.mkdtemp(dir=tmp_path)).outputMode("update").start())
    try:
        query.processAllAvailable()
        (folder / "b.txt").write_text("4\n")
        query.processAllAvailable()
    finally:
        query.stop()
    assert [b for b in batches if b][-1] == [(7,)]


# -- the TODO of an hour-long window over a rowtime column names what the column is -----------

def _hour_window(ts_type: str) -> str:
    return convert_source(
        "from pyflink.table import EnvironmentSettings, TableEnvironment\n"
        "from pyflink.table.expressions import col, lit\nfrom pyflink.table.window import Tumble\n"
        "t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())\n"
        f"t_env.execute_sql(\"CREATE TABLE src (k STRING, ts {ts_type}, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) "
        "WITH ('connector' = 'kafka', 'topic' = 'src', 'properties.bootstrap.servers' = 'k:9092', "
        "'scan.startup.mode' = 'earliest-offset', 'format' = 'json')\")\n"
        "t_env.execute_sql(\"CREATE TABLE out_t (k STRING, n BIGINT) WITH ('connector' = 'print')\")\n"
        "t_env.from_path('src').window(Tumble.over(lit(1).hours).on(col('ts')).alias('w')).group_by(col('w'), col('k'))"
        ".select(col('k'), col('k').count.alias('n')).execute_insert('out_t').wait()\n", "job.py").output


def test_an_hour_window_over_a_timestamp_rowtime_says_the_view_reads_it_in_the_session_time_zone():
    """A TIMESTAMP(3) rowtime is no TIMESTAMP_LTZ: Flink aligns the window on its values; the view
    casts it to a TIMESTAMP for Spark's watermark (before, the TODO called it a TIMESTAMP_LTZ column)."""
    out = _hour_window("TIMESTAMP(3)")
    assert "TUMBLE window of 1 hours over the TIMESTAMP(3) rowtime column ts (a TIMESTAMP without time zone" in out, out
    assert "TIMESTAMP_LTZ" not in out, out
    out = _hour_window("TIMESTAMP_LTZ(3)")
    assert "TUMBLE window of 1 hours over a TIMESTAMP_LTZ column (Flink aligns it in the session time zone" in out, out


def test_an_hour_window_over_a_legacy_rowtime_names_the_legacy_rowtime_column():
    from pathlib import Path

    source = (Path(__file__).parent.parent / "fixtures/table/legacy_page_views_kafka_rowtime/input.py").read_text()
    out = convert_source(source.replace('"5.minutes"', '"1.hours"'), "job.py").output
    assert "TUMBLE window of 1 hours over the legacy Rowtime() column rowtime (a TIMESTAMP without time zone" in out, out
    assert "TIMESTAMP_LTZ" not in out, out


# -- an unbounded table read in batch mode: Flink refuses the job ---------------------------------

@pytest.mark.parametrize(
    "ddl, bounding",
    [
        ("CREATE TABLE src (k STRING, v INT) WITH ('connector' = 'kafka', 'topic' = 'src', 'properties.bootstrap.servers' = "
         "'k:9092', 'scan.startup.mode' = 'earliest-offset', 'format' = 'json')", "'scan.bounded.mode'"),
        ("CREATE TABLE src (k STRING, v INT) WITH ('connector' = 'datagen')", "'number-of-rows'"),
    ],
)
def test_an_unbounded_table_read_in_batch_mode_is_a_todo_with_flinks_refusal(ddl, bounding):
    """Flink 2.3 in batch mode refuses an unbounded source before the job starts ("Querying an
    unbounded table 'default_catalog.default_database.g' in batch mode is not allowed. The table
    source is unbounded.", seen with a datagen table without number-of-rows; Kafka tables without
    scan.bounded.mode fail the same planner check). Before, the conversion read the table as a
    stream (readStream) and ran the batch program's queries as streaming queries."""
    out = convert_source(
        "from pyflink.table import EnvironmentSettings, TableEnvironment\n"
        "t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())\n"
        f"t_env.execute_sql(\"{ddl}\")\n"
        "t_env.from_path('src').execute().print()\n", "job.py").output
    assert "readStream" not in out and "writeStream" not in out, out
    assert out.count("in batch mode: Flink refuses the job") == 2 and bounding in out, out


# -- a bounded Kafka table (scan.bounded.mode): Spark's batch Kafka read ------------------------

@pytest.mark.parametrize("bounded, ending", [
    ("'scan.bounded.mode' = 'latest-offset'", ("endingOffsets", "latest")),
    ("'scan.bounded.mode' = 'specific-offsets', 'scan.bounded.specific-offsets' = 'partition:0,offset:3;partition:1,offset:7'",
     ("endingOffsets", '{"taps": {"0": 3, "1": 7}}')),
    ("'scan.bounded.mode' = 'timestamp', 'scan.bounded.timestamp-millis' = '1700000000000'",
     ("endingTimestamp", "1700000000000")),
])
def test_a_bounded_kafka_table_reads_to_its_ending_offsets_in_a_batch_job(bounded, ending, spark, monkeypatch, capsys):
    """scan.bounded.mode makes Flink read the topic to the given offsets and end the job (batch
    mode takes such a table); Spark's batch Kafka read (``spark.read``) stops at the same place
    (``endingOffsets``/``endingTimestamp``, exclusive as Flink's stopping offsets). No broker here:
    the read records its options and gives the topic's records, and the query's rows must be the
    sums of those records (what Flink's batch query gives over the same records)."""
    from pyspark.sql import DataFrameReader

    records = ['{"k": "north", "fare": 250}', '{"k": "south", "fare": 180}', '{"k": "north", "fare": 120}']
    seen: dict = {}
    fmt, option = DataFrameReader.format, DataFrameReader.option

    def record_format(self, source):
        seen["format"] = source
        return fmt(self, source)

    def record_option(self, key, value):
        seen[key] = value
        return option(self, key, value)

    monkeypatch.setattr(DataFrameReader, "format", record_format)
    monkeypatch.setattr(DataFrameReader, "option", record_option)
    monkeypatch.setattr(DataFrameReader, "load", lambda self, *a, **k: spark.createDataFrame(
        [(r.encode(),) for r in records], "value BINARY"))
    out = convert_source(
        "from pyflink.table import EnvironmentSettings, TableEnvironment\n"
        "t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())\n"
        "t_env.execute_sql(\"CREATE TABLE taps (k STRING, fare INT) WITH ('connector' = 'kafka', 'topic' = 'taps', "
        f"'properties.bootstrap.servers' = 'k:9092', 'scan.startup.mode' = 'earliest-offset', {bounded}, 'format' = 'json')\")\n"
        "t_env.execute_sql('SELECT k, SUM(fare) AS total FROM taps GROUP BY k').print()\n", "job.py").output
    assert "TODO" not in out and "readStream" not in out, out
    try:
        exec(compile(out, "job.py", "exec"), {"__name__": "__main__"})
    finally:
        spark.catalog.dropTempView("taps")
    assert seen["format"] == "kafka" and seen["startingOffsets"] == "earliest" and seen[ending[0]] == ending[1], seen
    rows = {tuple(c.strip() for c in line.strip("|").split("|")) for line in capsys.readouterr().out.splitlines()
            if line.startswith("|")}
    assert rows == {("k", "total"), ("north", "370"), ("south", "180")}, rows


def test_a_bounded_kafka_table_with_latest_starting_offsets_is_a_todo():
    """Flink reads nothing there (it starts and ends at the latest offsets); Spark's batch read
    refuses latest starting offsets."""
    table = kafka("k STRING", "'topic' = 'src'", "'format' = 'json'", "'scan.startup.mode' = 'latest-offset'",
                  "'scan.bounded.mode' = 'latest-offset'")
    with pytest.raises(_sql.Untranslatable, match="latest starting offsets"):
        _kafka.source(table, (), "spark")


TVF_BY_START = ("SELECT window_start, k, COUNT(*) AS n, SUM(v) AS total "
                "FROM TABLE(TUMBLE(TABLE src, DESCRIPTOR(ts), INTERVAL '1' MINUTE)) GROUP BY window_start, k")


def test_a_window_tvf_grouped_without_window_end_is_an_updating_aggregation():
    """GROUP BY window_start (no window_end) over a window TVF is no window aggregation for Flink
    2.3 (its plan: a GroupAggregate over the WindowTableFunction, +I/-U/+U per record; fixture
    ride_dropoffs_kafka_tvf_quarter_updates): translated only for a consumer taking updates, the
    window's columns computed per row and grouped as any column; by both bounds it stays the
    window aggregation of append mode."""
    assert _sql.updating(TVF_BY_START, TABLES)
    assert not _sql.updating(TVF_BY_START.replace("GROUP BY window_start, k", "GROUP BY window_start, window_end, k"), TABLES)
    sql = _sql.query(TVF_BY_START, TABLES, updates=True)
    assert "WINDOW(ts, '1 minutes').start AS window_start" in sql and sql.endswith("GROUP BY window_start, k"), sql
    with pytest.raises(_sql.Untranslatable, match="HAVING of an aggregation without a window"):
        _sql.query(TVF_BY_START + " HAVING COUNT(*) > 1", TABLES, updates=True)


def test_a_window_tvf_grouped_by_its_start_drops_no_late_row_in_update_mode(spark, tmp_path):
    """Flink's window TVF drops no late record (AlignedWindowTableFunctionOperator drops only a
    NULL time) and its GroupAggregate keeps every group: a row behind the watermark still
    counts. So does Spark's: window(ts).start carries no watermark, so the update-mode
    aggregation neither drops the second file's 10:00:30 row (the watermark is then 10:05:08)
    nor forgets the 10:00 group."""
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.txt").write_text("x,1,2024-01-01 10:00:10\nx,2,2024-01-01 10:05:10\n")
    (folder / "b.txt").write_text("x,4,2024-01-01 10:00:30\n")
    import os
    os.utime(folder / "a.txt", (1_000_000_000, 1_000_000_000))  # the file source reads the older file first
    stream = spark.readStream.format("text").option("maxFilesPerTrigger", 1).load(str(folder)).selectExpr(
        "split(value, ',')[0] AS k", "CAST(split(value, ',')[1] AS INT) AS v",
        "CAST(split(value, ',')[2] AS TIMESTAMP) AS ts").withWatermark("ts", "2 seconds")
    stream.createOrReplaceTempView("src")
    batches = []
    query = (spark.sql(_sql.query(TVF_BY_START, TABLES, updates=True)).writeStream
             .foreachBatch(lambda batch, i: batches.append(sorted((str(r[0]), *r[1:]) for r in batch.collect())))
             .option("checkpointLocation", tempfile.mkdtemp(dir=tmp_path)).outputMode("update")
             .trigger(availableNow=True).start())
    query.awaitTermination()
    spark.catalog.dropTempView("src")
    assert [b for b in batches if b] == [[("2024-01-01 10:00:00", "x", 1, 1), ("2024-01-01 10:05:00", "x", 1, 2)],
                                         [("2024-01-01 10:00:00", "x", 2, 5)]]
