"""Kafka table METADATA columns whose Flink value is not Spark's Kafka column as it is
(rules/table/_kafka.py ``_METADATA_SQL``), run on PySpark over rows of Spark's Kafka source
schema (``timestampType`` INT, ``headers`` ARRAY<STRUCT<key STRING, value BINARY>>, null for a
record with no headers, as Spark's KafkaRecordToRowConverter makes them with includeHeaders).

Flink's values (flink-connector-kafka ``KafkaDynamicSource.ReadableMetadata``): ``headers`` a
``HashMap`` the record's headers are put into in order (a key given twice keeps its last value;
no headers: an empty map, the column is NOT NULL); ``timestamp-type`` Kafka's
``TimestampType.toString()``: NoTimestampType (id -1), CreateTime (0), LogAppendTime (1).
"""

from __future__ import annotations

from flink2spark.rules.table._kafka import _METADATA_SQL
from flink2spark.transpiler.engine import convert_source

SCHEMA = "timestampType INT, headers ARRAY<STRUCT<key: STRING, value: BINARY>>"


def test_headers_and_timestamp_type_read_as_flinks_values(spark):
    rows = [
        (0, [("trace", b"t1"), ("origin", b"web")]),
        (1, [("trace", b"t1"), ("trace", b"t2"), ("origin", b"app")]),  # a key twice: the last value
        (-1, None),  # no headers: Spark's column is NULL, Flink's map empty
    ]
    frame = spark.createDataFrame(rows, SCHEMA).selectExpr(
        f"{_METADATA_SQL['timestamp-type']} AS kind", f"{_METADATA_SQL['headers']} AS hdrs")
    got = [(r.kind, {k: bytes(v) for k, v in r.hdrs.items()}) for r in frame.collect()]
    assert got == [
        ("CreateTime", {"trace": b"t1", "origin": b"web"}),
        ("LogAppendTime", {"trace": b"t2", "origin": b"app"}),
        ("NoTimestampType", {}),
    ]
    assert dict(frame.dtypes)["hdrs"] == "map<string,binary>"


def test_a_headers_column_asks_spark_for_the_headers():
    source = (
        "from pyflink.table import EnvironmentSettings, TableEnvironment\n\n"
        "t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())\n"
        "t_env.execute_sql(\"CREATE TABLE clicks (url STRING, hdrs MAP<STRING, BYTES> METADATA FROM 'headers' VIRTUAL,"
        " kind STRING METADATA FROM 'timestamp-type') WITH ('connector' = 'kafka', 'topic' = 'clicks',"
        " 'properties.bootstrap.servers' = 'k:9092', 'scan.startup.mode' = 'earliest-offset', 'format' = 'json')\")\n"
    )
    out = convert_source(source).output
    assert '"includeHeaders", "true"' in out and "TODO" not in out, out
    assert "map_from_entries(filter(headers" in out and "CASE timestampType WHEN 0" in out
