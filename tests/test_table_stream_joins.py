"""Table API joins of a stream (a Kafka table) in streaming mode: which have a Spark form with
Flink's rows (the program model's ``stream_join``, rules/table/join.py), and that Spark refuses
the forms left as TODOs. The records of the converted forms are compared with Flink 2.3's in
the fixtures depot_scans_kafka_left_join (stream-static left outer join: Flink's -D
retractions folded) and orders_payments_kafka_stream_join (stream-stream inner join)."""

from __future__ import annotations

import re

import pytest

from flink2spark.transpiler.engine import convert_source
from test_table_jdbc import derby  # noqa: F401 (the fixture: an in-memory Derby database)

HEAD = """from pyflink.table import EnvironmentSettings, TableEnvironment
from pyflink.table.expressions import col

t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
t_env.execute_sql(\"\"\"CREATE TABLE scans (id STRING, depot STRING, kg DOUBLE) WITH ('connector' = 'kafka',
    'topic' = 'scans', 'properties.bootstrap.servers' = 'localhost:9092', 'scan.startup.mode' = 'earliest-offset',
    'format' = 'json')\"\"\")
t_env.execute_sql(\"\"\"CREATE TABLE moves (mid STRING, to_depot STRING) WITH ('connector' = 'kafka',
    'topic' = 'moves', 'properties.bootstrap.servers' = 'localhost:9092', 'scan.startup.mode' = 'earliest-offset',
    'format' = 'json')\"\"\")
t_env.execute_sql(\"\"\"CREATE TABLE out_topic (id STRING, city STRING) WITH ('connector' = 'kafka',
    'topic' = 'out', 'properties.bootstrap.servers' = 'localhost:9092', 'scan.startup.mode' = 'earliest-offset',
    'format' = 'json')\"\"\")
t_env.execute_sql("CREATE TABLE shown (id STRING, city STRING) WITH ('connector' = 'print')")
scans = t_env.from_path("scans")
moves = t_env.from_path("moves")
depots = t_env.from_elements([("AMS", "Amsterdam")], ["code", "city"])
"""


def _convert(body: str):
    result = convert_source(HEAD + body, "job.py")
    assert result.output is not None
    return result.output


@pytest.mark.parametrize("body, join", [
    # stream-static: inner, left outer with the stream on the left, right outer with it on the right
    ("scans.join(depots, scans.depot == depots.code).execute().print()\n", '"inner"'),
    ("scans.left_outer_join(depots, scans.depot == depots.code).execute().print()\n", '"left"'),
    ("depots.right_outer_join(scans, scans.depot == depots.code).execute().print()\n", '"right"'),
    # row-by-row operations after it, a name bound once, a print table
    ("j = scans.left_outer_join(depots, scans.depot == depots.code)\n"
     "j.filter(j.kg > 1.0).select(j.id, j.city).execute_insert('shown').wait()\n", '"left"'),
    # stream-stream inner join on an equality (with another condition beside it)
    ("scans.join(moves, (col('depot') == col('to_depot')) & (col('id') != col('mid'))).execute().print()\n", '"inner"'),
    # an inner stream-static join into a Kafka topic (inserts only in Flink)
    ("scans.join(depots, scans.depot == depots.code).select(scans.id, depots.city).execute_insert('out_topic').wait()\n",
     '"inner"'),
])
def test_stream_joins_converted(body, join):
    out = _convert(body)
    assert "TODO(flink2spark)" not in out, out
    assert re.search(rf",\s*{join},?\s*\)", out) and ".writeStream" in out, out
    assert ("F2S327" in out) == ("depots" in body), out  # the NOTE of a stream-static join
    # the changelog part of the NOTE only for an outer join
    assert ("retracts it (-D)" in out) == (join != '"inner"'), out


@pytest.mark.parametrize("body, why", [
    ("scans.right_outer_join(depots, scans.depot == depots.code).execute().print()\n", "with the stream on the left"),
    ("depots.left_outer_join(scans, scans.depot == depots.code).execute().print()\n", "with the stream on the right"),
    ("scans.full_outer_join(depots, scans.depot == depots.code).execute().print()\n", "with the stream on the left"),
    ("scans.left_outer_join(moves, col('depot') == col('to_depot')).execute().print()\n", "of two streams"),
    ("scans.join(moves, col('kg') > 1.0).execute().print()\n", "without an equality"),
    ("scans.join(moves, col('depot') == 'AMS').execute().print()\n", "without an equality"),
    # Flink refuses the retractions of an outer join in an append-only sink
    ("scans.left_outer_join(depots, scans.depot == depots.code).select(scans.id, depots.city)"
     ".execute_insert('out_topic').wait()\n", "only a print or blackhole table"),
    # Flink's regular join drops time attributes; Spark refuses most operators after stream joins
    ("scans.join(depots, scans.depot == depots.code).group_by(col('city')).select(col('city'), col('kg').sum)"
     ".execute().print()\n", "used by group_by()"),
    ("j = scans.join(depots, scans.depot == depots.code)\nj = j.select(col('id'))\nj.execute().print()\n",
     "bound more than once"),
])
def test_stream_joins_refused(body, why):
    out = _convert(body)
    todo = next((line for line in out.splitlines() if "TODO(flink2spark): F2S300" in line and "join" in line), None)
    assert todo is not None and why in todo, out


def test_bounded_joins_in_streaming_mode_unchanged():
    out = _convert("depots.join(depots.alias('c2', 'city2'), col('code') == col('c2')).execute().print()\n")
    assert "F2S327" not in out and "writeStream" not in out and '"inner")' in out, out


def _stream(spark):
    return spark.readStream.format("rate").option("rowsPerSecond", 1).load().selectExpr("CAST(value AS STRING) AS depot")


@pytest.mark.parametrize("how, stream_left", [("right", True), ("left", False), ("full", True)])
def test_spark_refuses_the_outer_stream_static_joins_left_as_todo(spark, how, stream_left):
    from pyspark.errors import AnalysisException

    stream, static = _stream(spark), spark.createDataFrame([("1", "Amsterdam")], ["code", "city"])
    left, right = (stream, static) if stream_left else (static, stream)
    with pytest.raises(AnalysisException, match="(?i)not supported"):
        left.join(right, stream.depot == static.code, how).writeStream.format("noop").start().stop()


def test_spark_refuses_a_stream_stream_join_without_an_equality(spark):
    """Refused when the query runs its first micro-batch (the planner's check), not at start()."""
    a = _stream(spark)
    b = _stream(spark).withColumnRenamed("depot", "other")
    query = a.join(b, a.depot > b.other).writeStream.format("noop").start()
    try:
        with pytest.raises(Exception, match="(?i)without equality predicate is not supported"):
            query.processAllAvailable()
    finally:
        query.stop()


def test_spark_stream_static_left_join_looks_rows_up_in_the_whole_table(spark, tmp_path):
    """The converted form's records: every stream row once, with its matches or NULLs (what
    Flink's changelog folds to), whatever micro-batch it arrives in."""
    source = tmp_path / "in"
    source.mkdir()
    (source / "a.json").write_text('{"id": "p1", "depot": "AMS"}\n{"id": "p2", "depot": "EIN"}\n')
    static = spark.createDataFrame([("AMS", "Amsterdam"), ("AMS", "Amstel")], ["code", "city"])
    stream = spark.readStream.schema("id STRING, depot STRING").json(str(source))
    query = stream.join(static, stream.depot == static.code, "left").select("id", "city") \
        .writeStream.format("memory").queryName("f2s_stream_static").outputMode("append").start()
    try:
        query.processAllAvailable()
        (source / "b.json").write_text('{"id": "p3", "depot": "AMS"}\n')
        query.processAllAvailable()
        rows = sorted((r.id, r.city) for r in spark.table("f2s_stream_static").collect())
    finally:
        query.stop()
    assert rows == [("p1", "Amstel"), ("p1", "Amsterdam"), ("p2", None), ("p3", "Amstel"), ("p3", "Amsterdam")]


def test_spark_reads_a_jdbc_table_again_for_each_micro_batch(spark, tmp_path, derby):
    """What NOTE F2S327 says: a row added to the JDBC table while the query runs is seen by the
    next micro-batch (Flink read the bounded table once, at the start: it would not see it)."""
    url, run = derby
    run("CREATE TABLE DEPOTS (CODE VARCHAR(8), CITY VARCHAR(32))")
    run("INSERT INTO DEPOTS VALUES ('AMS', 'Amsterdam')")
    static = spark.read.format("jdbc").option("url", url).option("dbtable", "DEPOTS") \
        .option("driver", "org.apache.derby.jdbc.EmbeddedDriver").load()
    source = tmp_path / "in"
    source.mkdir()
    (source / "a.json").write_text('{"id": "p1", "depot": "UTR"}\n')
    stream = spark.readStream.schema("id STRING, depot STRING").json(str(source))
    query = stream.join(static, stream.depot == static.CODE, "left").select("id", "CITY") \
        .writeStream.format("memory").queryName("f2s_jdbc_static").outputMode("append").start()
    try:
        query.processAllAvailable()
        run("INSERT INTO DEPOTS VALUES ('UTR', 'Utrecht')")
        (source / "b.json").write_text('{"id": "p2", "depot": "UTR"}\n')
        query.processAllAvailable()
        rows = sorted((r.id, r.CITY) for r in spark.table("f2s_jdbc_static").collect())
    finally:
        query.stop()
    assert rows == [("p1", None), ("p2", "Utrecht")]
